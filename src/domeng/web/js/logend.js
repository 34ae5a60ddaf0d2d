// A log scrolled to its end (the running account, the talk at the table) shows no line
// cut in half at its top. Its lines differ in height (one event takes a line, another
// two; a phone's narrow column wraps more), so no height of the box fits them all:
// instead the line the top edge would cut is scrolled away whole, and the room for that
// is made below the last line (a spare of less than a line: the list's ::after, its
// height in --log-spare, style.css).

/** Whether `list` is scrolled to its end (within a pixel). */
export function atEnd(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 2;
}

/** Scroll `list` (a scrolling list of lines) to its end with its top line whole. */
export function showEnd(list) {
  list.style.setProperty("--log-spare", "0px");
  list.scrollTop = list.scrollHeight;
  const top = list.getBoundingClientRect().top + list.clientTop;
  for (const line of list.children) {
    const box = line.getBoundingClientRect();
    if (box.bottom <= top + 1) continue; // scrolled away already (a pixel's rounding aside)
    if (box.top < top - 1) {
      list.style.setProperty("--log-spare", `${box.bottom - top}px`);
      list.scrollTop = list.scrollHeight;
    }
    return;
  }
}

/** Keep `list` at its end, its top line whole, when its box changes size (a window
 * resized, a phone turned, the column's other parts grown) while it was at its end. */
export function keepEnd(list) {
  let wasAtEnd = true;
  list.addEventListener("scroll", () => (wasAtEnd = atEnd(list)), { passive: true });
  const watch = new ResizeObserver(() => {
    if (!list.isConnected) watch.disconnect(); // its page was left
    else if (wasAtEnd) showEnd(list);
  });
  watch.observe(list);
}
