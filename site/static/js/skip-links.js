// The skip links move focus without touching the fragment, which holds the
// search ("#main-content" would otherwise replace the words and filters).

// A link's target id; a malformed escape (from a record's own Markdown) names no element.
function decodedId(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return "";
  }
}

export function skipTo(event) {
  const link = event.target.closest && event.target.closest('a[href^="#"]');
  const target = link && link.hash.length > 1 ? document.getElementById(decodedId(link.hash.slice(1))) : null;
  if (!target) {
    return;
  }
  event.preventDefault();
  // A link out of a disclosure (the phone's "Show results" under the filters) folds it away.
  const fold = link.closest("details");
  if (fold && !fold.contains(target)) {
    fold.open = false;
  }
  if (!target.hasAttribute("tabindex")) {
    target.setAttribute("tabindex", "-1");
    target.addEventListener("blur", () => target.removeAttribute("tabindex"), { once: true });
  }
  target.focus();
}
