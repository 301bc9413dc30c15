// Downloading the site's own files: the one path the worker and the page use.
//
// A download that receives no bytes for `stallMs` is abandoned (a slow link
// still finishes a large file; a dead one does not hold a call for ever).
// `verify` checks bytes against the entry that vouches for them (the
// manifest's {path, sha256, size}) and throws when they differ: fail closed.

export class IntegrityError extends Error {}

function abortWhenStalled(controller, stallMs) {
  let timer = null;
  const touch = () => {
    clearTimeout(timer);
    if (stallMs > 0) {
      timer = setTimeout(() => controller.abort(), stallMs);
    }
  };
  touch();
  return { touch, stop: () => clearTimeout(timer) };
}

function joined(chunks, length) {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

// The body of `url` as bytes; throws when the server says no, the network
// fails or the download stalls. `onBytes(count)` hears each chunk arrive.
export async function download(url, { onBytes = () => {}, stallMs = 0, cache = "default", priority = "auto" } = {}) {
  const controller = new AbortController();
  const stall = abortWhenStalled(controller, stallMs);
  try {
    const response = await fetch(url, { credentials: "same-origin", cache, priority, signal: controller.signal });
    if (!response.ok) {
      throw new Error(`${url} answered ${response.status}`);
    }
    const reader = response.body.getReader();
    const chunks = [];
    let length = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        return joined(chunks, length);
      }
      stall.touch();
      chunks.push(value);
      length += value.length;
      onBytes(value.length);
    }
  } finally {
    stall.stop();
  }
}

export async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The bytes, once their size (when given) and sha256 (or its first digits)
// match `entry`; else an IntegrityError naming the file (`name`, the entry's
// path) and what vouches for it (`voucher`). Bytes: an ArrayBuffer or a view.
export async function verify(bytes, entry, name = entry && entry.path, voucher = "the manifest") {
  const expected = entry && typeof entry.sha256 === "string" ? entry.sha256.toLowerCase() : "";
  if (expected.length < 32 || (Number.isInteger(entry.size) && entry.size !== bytes.byteLength) || (await sha256Hex(bytes)).slice(0, expected.length) !== expected) {
    throw new IntegrityError(`${name} failed its integrity check (its size or sha256 differs from ${voucher}), so it was not used`);
  }
  return bytes;
}

// The URL a fetch() was called with (a string, URL or Request).
export function requestUrl(input) {
  return String(input && typeof input === "object" && "url" in input ? input.url : input);
}

// The data folder's manifest, always asked of the server (it names every
// other data file by its hash, so a stale copy would point at old files).
export async function manifestOf(dataUrl) {
  const bytes = await download(new URL("manifest.json", dataUrl).href, { cache: "no-cache" });
  return { bytes, manifest: JSON.parse(new TextDecoder().decode(bytes)) };
}
