// bench/fetch_cost.py's page: how long one round of parallel fetches of a
// site's row shards takes in this browser, from the page and from a worker.
// The names come from fetch-cost-list.json; the figures go back to the bench
// server as the path of one last request (no DevTools needed to read them).

const params = new URLSearchParams(location.search);
const count = Number(params.get("files"));
const rounds = Number(params.get("rounds"));
const names = await (await fetch("/fetch-cost-list.json")).json();
let next = 0;
const pick = (k) => names.slice(next, (next += k)).map((name) => new URL(name, location.href).href);

async function round(urls) {
  const started = performance.now();
  await Promise.all(urls.map((url) => fetch(url).then((response) => response.arrayBuffer())));
  return performance.now() - started;
}

const workerSource = `onmessage = async (event) => {
  const started = performance.now();
  await Promise.all(event.data.map((url) => fetch(url).then((response) => response.arrayBuffer())));
  postMessage(performance.now() - started);
};`;
const worker = new Worker(URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" })));
const inWorker = (urls) =>
  new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage(urls);
  });

const out = { page: [], page_cached: [], page_one: [], worker: [] };
await round(pick(2)); // the connection and the first request's costs, not timed
for (let i = 0; i < rounds; i++) {
  const urls = pick(count);
  out.page.push(await round(urls));
  out.page_cached.push(await round(urls));
  out.page_one.push(await round(pick(1)));
  out.worker.push(await inWorker(pick(count)));
}
window.fetchCost = out;
await fetch("/fetch-cost-report/" + encodeURIComponent(JSON.stringify(out)));
