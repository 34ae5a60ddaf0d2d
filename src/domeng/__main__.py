from domeng.cli import main

main()
