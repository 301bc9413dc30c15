// Pagefind over the same records: pagefind.search(query, {filters}) and the
// data (title, summary) of the best 20 results. window.__bench (set up by
// bench/run.py's init script) gets the mark "ready" after pagefind.init();
// window.__bench.search(args) answers one query.
const B = window.__bench || (window.__bench = { marks: {} });
const mark = (name) => { if (!(name in B.marks)) B.marks[name] = performance.now(); };
const FILTERS = [["collections", "collection"], ["resourceTypes", "resourceType"], ["accessStatuses", "accessStatus"], ["publishers", "publisher"]];

const pagefind = await import("./pagefind/pagefind.js");

async function search(args) {
  const filters = {};
  for (const [name, key] of FILTERS) {
    if (args[name] && args[name].length) {
      filters[key] = { any: args[name] };
    }
  }
  const found = await pagefind.search(String(args.query || ""), { filters });
  const limit = args.limit || 20;
  const results = await Promise.all(found.results.slice(0, limit).map((result) => result.data()));
  return { ok: true, total: found.results.length, returned: results.length, results, facets: found.filters };
}

function render(result) {
  window.__benchShow(result.total, result.results.map((item) => ({ href: item.url, title: item.meta.title, summary: item.meta.summary || item.excerpt })));
}

B.search = search;
B.engine = "pagefind";
await pagefind.options({ excerptLength: 30 });
await pagefind.init();
mark("ready");
const q = new URLSearchParams(location.hash.slice(1)).get("q");
if (q) {
  render(await search({ query: q, limit: 20 }));
}
