"""axe-core (the npm package installed in tests/aid/axe by scripts/test.sh) run inside a page.

The script is evaluated through the browser's debugging protocol, not added as a <script>: the
page's Content Security Policy (only its own scripts, by hash) stays as shipped and is enforced
for everything the page itself does.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

AXE_JS = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
# the WCAG 2.2 AA success criteria (A and AA of 2.0, 2.1 and 2.2) the aid must meet
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")


@lru_cache(maxsize=1)
def axe_source() -> str:
    if not AXE_JS.is_file():
        raise FileNotFoundError(f"{AXE_JS} is missing: run `npm ci --prefix tests/aid/axe` "
                                "(scripts/test.sh does)")
    return AXE_JS.read_text(encoding="utf-8")


# best-practice rules (no WCAG tag) that the accessibility review of the aid asked for too
ISSUE_RULES = ("heading-order", "landmark-unique", "empty-table-header", "empty-heading",
               "page-has-heading-one", "landmark-one-main", "region")

# the rules whose outcome a change of theme (colours only) can change
COLOUR_RULES = ("color-contrast", "link-in-text-block", "non-text-contrast")


def run_axe(page, include: tuple[str, ...] = (), only: tuple[str, ...] = ()) -> list[dict]:
    """Every rule axe finds broken on the page as it is now (all rules, experimental too, or
    the rules `only` names), in the whole page or only in the parts `include` selects:
    [{id, impact, tags, help, nodes: ['selector :: what is wrong', ...]}]."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    return page.evaluate("""async ([include, only]) => {
      const where = include.length ? {include: include.map(s => [s])} : document;
      const known = new Set(axe.getRules().map(r => r.ruleId));
      const r = await axe.run(where, only.length ? {resultTypes: ['violations'],
        runOnly: {type: 'rule', values: only.filter(id => known.has(id))}} : {resultTypes: ['violations'],
        rules: {'label-content-name-mismatch': {enabled: true}, 'p-as-heading': {enabled: true},
                'table-fake-caption': {enabled: true}, 'td-has-header': {enabled: true}}});
      return r.violations.map(v => ({id: v.id, impact: v.impact, tags: v.tags, help: v.help,
        nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + n.failureSummary.split('\\n').slice(1, 2).join(''))}));
    }""", [list(include), list(only)])


def wcag(violations: list[dict]) -> list[dict]:
    """The violations of a WCAG 2.2 A/AA criterion."""
    return [v for v in violations if set(v["tags"]) & set(WCAG_TAGS)]


def summary(violations: list[dict]) -> str:
    return "; ".join(f"{v['id']} ({len(v['nodes'])}): {v['nodes'][:3]}" for v in violations)


def set_theme(page, theme: str) -> None:
    """The dark or light theme, chosen as a player does (the toggle)."""
    if page.locator("#theme-toggle").count():
        if page.evaluate("document.documentElement.dataset.theme") != theme:
            page.locator("#theme-toggle").click()
        assert page.evaluate("document.documentElement.dataset.theme") == theme
    else:  # the index has no script: the same stylesheet's theme, set by hand
        page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
