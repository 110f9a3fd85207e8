"""Calculators as VASSAL pieces and components: markers, their palette, the map data.

A resolution marker per table (dropped on the defender or target) holds the calculated
properties, the player's options (its menu), the dice and the chat report; an attack marker per
table that totals attackers (dropped on each attacking hex or sector) holds the properties the
resolution marker sums. The map data are module global properties. Components are made with
builder.vassal's component and trait classes; the traits it lacks are in traits.py here.
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

from builder.vassal import components as vc
from builder.vassal import traits as vt
from builder.vassal.encoding import CTRL, keystroke
from builder.vassal.engine_attributes import P as JAVA
from builder.vassal_combat import sight
from builder.vassal_combat.calculator import PREFIX, Calculator
from builder.vassal_combat.tables import calculators

RESOLVE_KEY = keystroke(82, CTRL)  # Ctrl+R
ROLL, REPORT, PUBLISH, RESET, HELP = (f"{PREFIX}{k}" for k in ("Roll", "Report", "Publish",
                                                                  "Reset", "Help"))


class GlobalProperties(vc.Component):
    """<GlobalProperties>: the module's global properties."""

    TAG = JAVA + "module.properties.GlobalProperties"


class GlobalProperty(vc.Component):
    """<GlobalProperty name=...> (the engine leaves 'name' out of its default attribute set)."""

    TAG = JAVA + "module.properties.GlobalProperty"

    def __init__(self, name: str, value: str, description: str = ""):
        super().__init__(initialValue=value, description=description)
        self.attrs["name"] = name


def help_text(c: Calculator) -> str:
    """What the marker's 'How to use' command writes in the chat."""
    steps = [f"{c.name}: drop this marker " + ("anywhere on the map" if c.place == "anywhere"
                                               else f"on the {c.place}")]
    if c.attacker_name:
        steps.append(f"drop an '{c.attacker_name}' marker on each hex or sector attacking from "
                     "(all units stacked with it count)")
    if any(i.kind != "board" for i in c.inputs):
        steps.append("set the options in this marker's Options menu")
    steps.append("then choose Resolve (Ctrl+R): the module " + ("rolls and reports" if c.dice
                                                                 else "reports") + " here")
    return "; ".join(steps) + "."


def _input_traits(c: Calculator) -> tuple[list[vt.Trait], list[str]]:
    """A dynamic property per option; each menu command has its own named key."""
    out: list[vt.Trait] = []
    menus: list[str] = []
    for i in c.inputs:
        if i.kind == "board":  # read from the board (the turn track), not asked
            continue
        reset = vt.Command("", vt.named(RESET), vt.changer_set(i.default))
        if i.kind == "toggle":
            cmds = (vt.Command(f"{i.label}: on/off", vt.named(f"{i.prop}Toggle"),
                               vt.changer_set(f"{{1 - {i.prop}}}")),)
            numeric, lo, hi = True, 0, 1
        elif i.kind == "count":
            cmds = (vt.Command(f"{i.label}: one more", vt.named(f"{i.prop}Up"),
                               vt.changer_increment(1)),
                    vt.Command(f"{i.label}: one fewer", vt.named(f"{i.prop}Down"),
                               vt.changer_increment(-1)))
            numeric, lo, hi = True, i.min, i.max
        elif i.kind == "number":
            cmds = (vt.Command(f"{i.label}...", vt.named(f"{i.prop}Set"),
                               vt.changer_prompt(f"{i.label} ({i.min} to {i.max})")),)
            numeric, lo, hi = True, i.min, i.max
        elif i.kind == "hex":  # typed as printed and kept as typed ('0822' keeps its zero)
            cmds = (vt.Command(f"{i.label}...", vt.named(f"{i.prop}Set"),
                               vt.changer_prompt(f"{i.label}, as printed")),)
            numeric, lo, hi = False, 0, 100
        else:
            cmds = (vt.Command(f"{i.label}...", vt.named(f"{i.prop}Set"),
                               vt.changer_choose(i.label, i.choices)),)
            numeric, lo, hi = False, 0, 100
        menus += [cmd.menu for cmd in cmds]
        out.append(vt.DynamicProperty(i.prop, i.default, cmds + (reset,), numeric, lo, hi))
    return out, menus


def resolution_piece(c: Calculator, image: str) -> vt.Piece:
    """The resolution marker: calculated properties outermost, so they see every other trait."""
    traits: list[vt.Trait] = [vt.CalculatedProperty(n, e) for n, e in c.props]
    actions = ([vt.named(PUBLISH)] if c.published else []) + [vt.named(ROLL), vt.named(REPORT)]
    traits.append(vt.TriggerAction("Resolve", RESOLVE_KEY, tuple(actions), "Resolve"))
    traits.append(vt.ReportState((vt.named(REPORT),), c.report, "Result"))
    traits.append(vt.TriggerAction("How to use", vt.named(f"{HELP}Menu"), (vt.named(HELP),),
                                   "Help"))
    traits.append(vt.ReportState((vt.named(HELP),), help_text(c), "Help text"))
    for glob, prop in c.published.items():
        traits.append(vt.SetGlobalProperty(glob, (vt.Command("", vt.named(PUBLISH),
                                                             vt.changer_set(f"${prop}$")),)))
    for prop, roll in c.dice:
        traits.append(vt.DynamicProperty(prop, "1", (vt.Command("", vt.named(ROLL),
                                                                vt.changer_set(f"{{{roll}}}")),)))
    inputs, menus = _input_traits(c)
    traits += inputs
    if inputs:
        traits.append(vt.TriggerAction("Reset options", vt.named(f"{RESET}Menu"),
                                       (vt.named(RESET),), "Reset"))
        traits.append(vt.SubMenu("Options", tuple(menus) + ("Reset options",)))
    traits.append(vt.Marker(((f"{PREFIX}Table", c.table_id), ("Kind", "combat"))))
    traits.append(vt.Delete())
    traits.append(vt.BasicPiece(image, c.marker))
    return vt.Piece(tuple(traits))


def attacker_piece(c: Calculator, image: str) -> vt.Piece:
    """An attack marker: its stack's share of the attack, and what it crosses."""
    traits: list[vt.Trait] = [vt.CalculatedProperty(n, e) for n, e in c.attacker]
    traits.append(vt.Marker(tuple(c.attacker_marks) + ((f"{PREFIX}AttackerOf", c.table_id),
                                                       ("Kind", "combat"))))
    traits.append(vt.Delete())
    traits.append(vt.BasicPiece(image, c.attacker_name))
    return vt.Piece(tuple(traits))


def marker_svg(size_mm: float, lines: list[str], fill: str) -> str:
    """A plain square marker with up to three short lines of text."""
    text = []
    n = len(lines)
    for i, line in enumerate(lines):
        y = 50 + (i - (n - 1) / 2) * 22
        fs = min(18.0, round(86 / (0.8 * max(len(line), 1)), 1))  # fit the width (bold caps)
        text.append(f'<text x="50" y="{y + fs / 3:.1f}" font-family="DejaVu Sans, sans-serif" '
                    f'font-size="{fs}" font-weight="bold" text-anchor="middle" fill="#000">'
                    f"{escape(line)}</text>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_mm}mm" height="{size_mm}mm" '
            f'viewBox="0 0 100 100"><rect x="2" y="2" width="96" height="96" rx="8" '
            f'fill="{fill}" stroke="#000" stroke-width="4"/>' + "".join(text) + "</svg>")


def _short(table_id: str) -> str:
    """The table's id, upper case, as the marker's second line ('crt' -> 'CRT')."""
    return table_id.replace("-", " ").upper()[:16]


def components_for(game, geom, gpid: Callable[[str, str], str],
                   entries: dict[str, bytes]) -> list:
    """The combat-resolution components of a game's module (images go into entries); gpid
    gives a slot's id from its key and a description (builder.vassal.piece_ids)."""
    from builder.vassal.images import drawing_png

    calcs = calculators(game) + sight.calculators(game)
    if not calcs:
        return []
    size_id = "unit" if any(s.id == "unit" for s in game.info.counter_sizes) \
        else game.info.counter_sizes[0].id
    px = geom.counter_px(size_id)
    size_mm = px / geom.px_per_mm
    slots = []
    glob: dict[str, str] = {}
    for c in calcs:
        image = f"combat-{c.table_id}.png"
        entries["images/" + image] = drawing_png(
            marker_svg(size_mm, ["CHECK" if c.kind in sight.KINDS else
                                 "ROLL" if c.place == "anywhere" else "RESOLVE",
                                 _short(c.table_id)], "#f2c94c"), geom.px_per_mm)
        slots.append(vc.PieceSlot(body=resolution_piece(c, image).definition(),
                                  entryName=c.marker, width=px, height=px,
                                  gpid=gpid(f"combat:{c.table_id}", f"the {c.marker} marker")))
        if c.attacker_name:
            aimage = f"combat-{c.table_id}-attacker.png"
            entries["images/" + aimage] = drawing_png(
                marker_svg(size_mm, ["ATTACK", _short(c.table_id)], "#f2994a"), geom.px_per_mm)
            slots.append(vc.PieceSlot(body=attacker_piece(c, aimage).definition(),
                                      entryName=c.attacker_name, width=px, height=px,
                                      gpid=gpid(f"combat:{c.table_id}:attacker",
                                                f"the {c.attacker_name} marker")))
        for g in c.published:
            glob[g] = ""
        glob.update(c.data)
    window = vc.PieceWindow(vc.PanelWidget(*slots, entryName="Combat", nColumns=2),
                            name="Combat", text="Combat", hotkey=keystroke(67, CTRL + 65),
                            tooltip="Combat resolution markers (drop, set options, Resolve)")
    props = GlobalProperties(*[GlobalProperty(k, v) for k, v in sorted(glob.items())])
    return [props, window]
