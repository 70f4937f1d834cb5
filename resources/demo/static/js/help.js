// Help centre: a search box that filters the FAQ into a result list, and an accordion of questions.
(function () {
  "use strict";
  const search = document.querySelector('[data-testid="help-search"]');
  const results = document.getElementById("help-results");
  const count = results.querySelector('[data-testid="help-result-count"]');
  const list = results.querySelector("ul");
  const noResults = results.querySelector('[data-testid="help-no-results"]');
  const toggles = Array.from(document.querySelectorAll(".accordion button[aria-controls]"));
  const articles = toggles.map((button) => ({
    button,
    question: button.textContent.trim(),
    answer: document.getElementById(button.getAttribute("aria-controls")).textContent.trim(),
  }));

  function setExpanded(button, expanded) {
    button.setAttribute("aria-expanded", String(expanded));
    document.getElementById(button.getAttribute("aria-controls")).hidden = !expanded;
  }

  for (const button of toggles) {
    button.addEventListener("click", () => setExpanded(button, button.getAttribute("aria-expanded") !== "true"));
  }

  function highlight(text, query) {
    const esc = lumen.escapeHtml;
    const at = text.toLowerCase().indexOf(query.toLowerCase());
    if (at < 0) return esc(text);
    return esc(text.slice(0, at)) + "<mark>" + esc(text.slice(at, at + query.length)) + "</mark>" + esc(text.slice(at + query.length));
  }

  function runSearch() {
    const query = search.value.trim();
    if (!query) {
      results.hidden = true;
      return;
    }
    const terms = query.toLowerCase().split(/\s+/);
    const hits = articles.filter((a) => terms.every((t) => (a.question + " " + a.answer).toLowerCase().includes(t)));
    results.hidden = false;
    count.textContent = hits.length ? `${hits.length} result${hits.length === 1 ? "" : "s"} for “${query}”` : "Search results";
    noResults.hidden = hits.length > 0;
    noResults.textContent = `No results for “${query}”. Try different words, or contact us below.`;
    list.replaceChildren(
      ...hits.map((a) => {
        const li = document.createElement("li");
        li.setAttribute("data-testid", "help-result");
        li.innerHTML = `<a href="#${a.button.id}" data-testid="help-result-link">${highlight(a.question, query)}</a><p>${highlight(a.answer, query)}</p>`;
        li.querySelector("a").addEventListener("click", (event) => {
          event.preventDefault();
          setExpanded(a.button, true);
          a.button.scrollIntoView({ block: "center" });
          a.button.focus();
        });
        return li;
      })
    );
  }

  search.addEventListener("input", runSearch);
  search.addEventListener("search", runSearch);
  runSearch(); // the box may already hold text: typed before this script ran, or restored by the back button
})();
