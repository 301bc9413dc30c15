// The peer bench pages (lunr.html, pagefind.html) show their results with
// this one list, so the first-result mark (bench/browser.py) times each
// engine rather than a different rendering. A classic script: each page
// loads it before its own.
window.__benchShow = function (total, items) {
  document.getElementById("search-status").textContent = `${total} results`;
  document.getElementById("search-results").replaceChildren(...items.map(({ href, title, summary }) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = href;
    link.textContent = title;
    const paragraph = document.createElement("p");
    paragraph.textContent = summary;
    li.append(link, paragraph);
    return li;
  }));
};
