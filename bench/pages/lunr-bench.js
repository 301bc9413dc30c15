// lunr.js 2.3.9 over govsearch's prebuilt index, emulating govsearch's search:
// all terms required, else any term, else words of 5+ letters with one typo;
// exact filters applied to the matches; facet counts per dimension with the
// other dimensions' filters applied; the best 20 looked up in the record
// store. window.__bench (set up by bench/run.py's init script) gets the marks
// "data_loaded" and "ready"; window.__bench.search(args) answers one query.
(function () {
  "use strict";
  const B = window.__bench || (window.__bench = { marks: {} });
  const mark = (name) => { if (!(name in B.marks)) B.marks[name] = performance.now(); };
  const DIMENSIONS = [["collections", "collection"], ["resourceTypes", "resourceType"], ["accessStatuses", "accessStatus"], ["publishers", "publisher"]];
  const P = lunr.Query.presence;
  let index = null;
  let byId = null;

  function terms(text) {
    return lunr.tokenizer(text).map((token) => token.toString()).filter((token) => lunr.stopWordFilter(token));
  }

  function run(words, mode) {
    return index.query((query) => {
      for (const word of words) {
        if (mode === "fuzzy") {
          query.term(word, word.length >= 5 ? { editDistance: 1, presence: P.OPTIONAL } : { presence: P.OPTIONAL });
        } else {
          query.term(word, { presence: mode === "all_terms" ? P.REQUIRED : P.OPTIONAL });
        }
      }
    });
  }

  function passes(record, args, skip) {
    for (const [name, field] of DIMENSIONS) {
      if (name !== skip && args[name] && args[name].length && !args[name].includes(record[field])) {
        return false;
      }
    }
    return true;
  }

  function search(args) {
    const words = terms(String(args.query || ""));
    const limit = args.limit || 20;
    let hits = [];
    let matched = [];
    let mode = "all_terms";
    if (words.length) {
      for (mode of ["all_terms", "any_term", "fuzzy"]) {
        hits = run(words, mode).map((hit) => [hit, byId.get(hit.ref)]);
        matched = hits.filter(([, record]) => passes(record, args, null));
        if (matched.length) {
          break;
        }
      }
    }
    const facets = {};
    for (const [name, field] of DIMENSIONS) {
      const counts = {};
      for (const [, record] of hits) {
        if (passes(record, args, name)) {
          counts[record[field]] = (counts[record[field]] || 0) + 1;
        }
      }
      facets[name] = counts;
    }
    const results = matched.slice(0, limit).map(([hit, record]) => ({ score: hit.score, ...record }));
    return { ok: true, total: matched.length, returned: results.length, match_mode: mode, results, facets };
  }

  function render(result) {
    window.__benchShow(result.total, result.results.map((item) => ({ href: `records/${encodeURIComponent(item.id)}/`, title: item.title, summary: item.summary })));
  }

  async function load() {
    const manifest = await (await fetch("data/manifest.json")).json();
    const [indexJson, recordsJson] = await Promise.all([
      fetch("data/" + manifest.files.index.path).then((response) => response.json()),
      fetch("data/" + manifest.files.records.path).then((response) => response.json()),
    ]);
    mark("data_loaded");
    index = lunr.Index.load(indexJson);
    byId = new Map(recordsJson.records.map((record) => [record.id, record]));
    mark("ready");
  }

  B.search = async (args) => search(args);
  B.engine = "lunr.js " + lunr.version;
  load().then(() => {
    const q = new URLSearchParams(location.hash.slice(1)).get("q");
    if (q) {
      render(search({ query: q, limit: 20 }));
    }
  }, (error) => { B.error = String(error); });
})();
