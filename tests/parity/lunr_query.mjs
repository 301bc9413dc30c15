// Run clause lists through lunr.js 2.3.9, the reference lunr.py must match.
//
// stdin:  {"indexPath": "<serialized lunr index>", "queries": [[clause, ...], ...]}
//         clause = {"term", "presence": "required"|"optional", "editDistance", "wildcard", "boost"}
// stdout: {"lunr": "<version>", "results": [[{"ref", "score"}, ...], ...]}, one list per query,
//         in lunr.js's own order.
//
// Clauses are added programmatically with usePipeline: false, exactly as
// govsearch.terms.to_lunr_query does in lunr.py: no query-string parsing.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(join(repo, "package.json"));
const lunr = require("lunr");

const input = JSON.parse(readFileSync(0, "utf8"));
const idx = lunr.Index.load(JSON.parse(readFileSync(input.indexPath, "utf8")));

const results = input.queries.map((clauses) =>
  idx
    .query((q) => {
      for (const c of clauses) {
        const options = {
          usePipeline: false,
          presence: c.presence === "required" ? lunr.Query.presence.REQUIRED : lunr.Query.presence.OPTIONAL,
          wildcard: c.wildcard ? lunr.Query.wildcard.TRAILING : lunr.Query.wildcard.NONE,
        };
        // lunr.js picks fuzzy matching when the clause merely HAS an
        // editDistance key (TokenSet.fromClause: 'editDistance' in clause),
        // and fuzzy matching reads "*" literally: {editDistance: 0, wildcard}
        // finds nothing. lunr.py tests the value (if clause.edit_distance).
        // lunr.js's own query parser sets the key only for "~N", so do the same.
        if (c.editDistance) options.editDistance = c.editDistance;
        if (c.boost !== undefined) options.boost = c.boost;
        q.term(c.term, options);
      }
    })
    .map(({ ref, score }) => ({ ref, score })),
);

process.stdout.write(JSON.stringify({ lunr: lunr.version, results }));
