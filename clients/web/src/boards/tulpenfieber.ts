import { playable, type BoardContext, type BoardMove } from "./board";
import { h, svg } from "../dom";
import { frame, get, type Json, list, num, seatName, str, text } from "./draw";

/**
 * Tulpenfieber: every player's tulip field (5 rows by 7 columns; each empty space says which
 * dice it needs, rules §1.2), the tulips, moneybags and wheelbarrows on it, the tiles above
 * it; the dice as rolled, with the wheelbarrow dice; what wins. The active player's spaces
 * that the dice fit light up, and on the viewer's turn they, the dice and the roll play.
 */

/** Faces needed by the side columns (rules §1.2: face 1, 2, 3, straights, 4, 5, 6). */
const FACE = [1, 2, 3, 0, 4, 5, 6];
/** How many dice of the face each row's side spaces need (the default `side_need`). */
const NEED = [2, 3, 3, 4, 5];
const COUNT_WORD = ["", "one", "two", "three", "four", "five", "six"];
/** The middle column's runs by row (the default `straight_sets`), as lines of text. */
const RUNS = [["any run", "of 3"], ["1234 or", "3456"], ["2345", ""], ["12345 or", "23456"], ["123456", ""]];
const ROW_NEED = ["a pair", "three", "three", "four", "five"];

const CELL = 60;
const CELL_H = 50;
const LEFT = 58;
const TOP = 46;


/** The default `straight_sets` (rules §1.2), to tell whether a game changed them. */
const DEFAULT_RUNS = JSON.stringify([[[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6]], [[1, 2, 3, 4], [3, 4, 5, 6]], [[2, 3, 4, 5]], [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]], [[1, 2, 3, 4, 5, 6]]]);

/** What this game's spaces need: its options (`side_need`, `straight_sets`), else the defaults. */
interface Needs {
  side: number[];
  runs: string[][];
  runWords: string[];
}

function needsOf(options: Json): Needs {
  const side = list(get(options, "side_need")).map((need) => num(need) ?? 0);
  const sets = get(options, "straight_sets");
  const custom = Array.isArray(sets) && JSON.stringify(sets) !== DEFAULT_RUNS;
  const runsOf = (row: Json): number[][] => list(row).map((set) => list(set).map((face) => num(face) ?? 0));
  return {
    side: side.length === 5 ? side : NEED,
    runs: custom ? list(sets).map((row) => {
      const alternatives = runsOf(row).map((set) => set.join(""));
      return alternatives.length > 1 ? [`${alternatives.slice(0, -1).join(", ")} or`, alternatives[alternatives.length - 1] ?? ""] : [alternatives[0] ?? "", ""];
    }) : RUNS,
    runWords: custom
      ? list(sets).map((row) => runsOf(row).map((set) => set.join("-")).join(" or "))
      : ["a run of three", "1-2-3-4 or 3-4-5-6", "2-3-4-5", "1-2-3-4-5 or 2-3-4-5-6", "1 to 6"],
  };
}

function requirement(needs: Needs, row: number, col: number): string {
  const face = FACE[col];
  if (face === 0) return needs.runWords[row] ?? "a run";
  const count = needs.side[row] ?? 0;
  return count === 1 ? `one ${face}` : `${COUNT_WORD[count] ?? ""} ${face}s`;
}

/** Pips of a die face inside a square at (x, y) of side `size`. */
function pips(x: number, y: number, size: number, face: number, colour = "#1f2328"): SVGElement[] {
  const a = size * 0.25;
  const b = size * 0.5;
  const c = size * 0.75;
  const spots: Record<number, [number, number][]> = {
    1: [[b, b]],
    2: [[a, a], [c, c]],
    3: [[a, a], [b, b], [c, c]],
    4: [[a, a], [c, a], [a, c], [c, c]],
    5: [[a, a], [c, a], [b, b], [a, c], [c, c]],
    6: [[a, a], [c, a], [a, b], [c, b], [a, c], [c, c]],
  };
  return (spots[face] ?? []).map(([px, py]) => svg("circle", { cx: x + px, cy: y + py, r: size * 0.09, fill: colour }));
}

function dieFace(x: number, y: number, size: number, face: number): SVGElement[] {
  return [svg("rect", { x, y, width: size, height: size, rx: size * 0.18, fill: "#ffffff", stroke: "#59636e" }), ...pips(x, y, size, face)];
}

/** A tile on a space: tulip (red cup, green stem), moneybag (gold bag with ƒ), multicoloured. */
function tile(x: number, y: number, mark: string): SVGElement[] {
  const upper = mark.toUpperCase();
  const cx = x + CELL / 2;
  const cy = y + CELL_H / 2;
  const base = svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL_H - 8, rx: 6, fill: "#f3e9d2", stroke: "#a08b5b" });
  if (upper === "M" || upper === "Y") {
    return [
      base,
      svg("circle", { cx, cy: cy + 3, r: 12, fill: upper === "Y" ? "#7b3fa0" : "#c99a2e", stroke: "#6b4e12" }),
      svg("rect", { x: cx - 5, y: cy - 14, width: 10, height: 6, rx: 2, fill: upper === "Y" ? "#7b3fa0" : "#c99a2e", stroke: "#6b4e12" }),
      text(cx, cy + 8, "ƒ", { "font-size": 14, "font-weight": 700, fill: "#ffffff" }),
    ];
  }
  const cup = upper === "X" ? ["#c0392b", "#e0b400", "#2e6db4"] : ["#c0392b", "#c0392b", "#c0392b"];
  return [
    base,
    svg("path", { d: `M${cx} ${cy + 4} L${cx} ${cy + 17}`, stroke: "#2d7d46", "stroke-width": 3 }),
    svg("path", { d: `M${cx - 11} ${cy - 12} L${cx - 5} ${cy - 4} L${cx} ${cy - 13} L${cx + 5} ${cy - 4} L${cx + 11} ${cy - 12} L${cx + 10} ${cy} Q${cx} ${cy + 9} ${cx - 10} ${cy} Z`, fill: cup[0] }),
    upper === "X" ? svg("circle", { cx: cx - 4, cy: cy - 3, r: 3, fill: cup[1] }) : null,
    upper === "X" ? svg("circle", { cx: cx + 4, cy: cy - 3, r: 3, fill: cup[2] }) : null,
  ].filter((part): part is SVGElement => part !== null);
}

function tileWord(mark: string): string {
  const upper = mark.toUpperCase();
  return upper === "M" ? "moneybag" : upper === "X" ? "multicoloured tulip" : upper === "Y" ? "multicoloured moneybag" : "tulip";
}

/** One player's field as SVG: requirements, tiles, wheelbarrows, fitting spaces. */
function field(view: Json, ctx: BoardContext, player: Json, seat: number, active: boolean): SVGElement {
  const needs = needsOf(ctx.options);
  const rows = list(get(player, "field")).map((row) => str(row) ?? "");
  const above = str(get(player, "above")) ?? "";
  const legal = new Set(active ? list(get(view, "legal_spaces")).map((space) => str(space) ?? "") : []);
  const placed = active ? str(get(get(get(view, "turn"), "placed"), "field")) : undefined;
  const parts: SVGElement[] = [];
  const width = LEFT + 7 * CELL + 8;
  // Column headers: the face each side column needs, "run" for the middle.
  FACE.forEach((face, c) => {
    const x = LEFT + c * CELL;
    if (face === 0) parts.push(text(x + CELL / 2, TOP - 14, "run", { "font-size": 13, "font-weight": 700 }));
    else parts.push(...dieFace(x + CELL / 2 - 13, TOP - 34, 26, face));
    parts.push(text(x + CELL / 2, TOP - 2, `column ${c + 1}`, { "font-size": 9, fill: "#59636e" }));
  });
  const covered: string[] = [];
  for (let r = 0; r < 5; r += 1) {
    const y = TOP + r * CELL_H;
    parts.push(text(LEFT - 6, y + 21, `row ${r + 1}`, { "font-size": 11, "text-anchor": "end", "font-weight": 600 }));
    parts.push(text(LEFT - 6, y + 35, JSON.stringify(needs.side) === JSON.stringify(NEED) ? ROW_NEED[r] ?? "" : needs.side[r] === 1 ? "one die" : `${COUNT_WORD[needs.side[r] ?? 0] ?? ""} alike`, { "font-size": 10, "text-anchor": "end", fill: "#59636e" }));
    for (let c = 0; c < 7; c += 1) {
      const x = LEFT + c * CELL;
      const mark = rows[r]?.charAt(c) ?? ".";
      const id = `r${r + 1}c${c + 1}`;
      const fits = legal.has(id) && mark === ".";
      const group = svg("g", {});
      group.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL_H - 2, rx: 4, fill: fits ? "#d9f2d0" : c === 3 ? "#eef0f6" : "#f4f7ee", stroke: fits ? "#2d7d46" : "#b9c4a7", "stroke-width": fits ? 2.5 : 1 }));
      if (mark === "." || mark === "") {
        if (FACE[c] === 0) {
          const [first = "", second = ""] = needs.runs[r] ?? [];
          group.append(svg("title", {}, `needs ${requirement(needs, r, c)}`));
          group.append(text(x + CELL / 2, y + (second ? 22 : 30), first, { "font-size": 11, fill: "#3d4650" }));
          if (second) group.append(text(x + CELL / 2, y + 36, second, { "font-size": 11, fill: "#3d4650" }));
        } else {
          group.append(svg("title", {}, `needs ${requirement(needs, r, c)}`));
          group.append(text(x + 19, y + 31, `${needs.side[r] ?? 0}×`, { "font-size": 17, "font-weight": 700, fill: "#3d4650" }));
          group.append(...dieFace(x + 31, y + 14, 22, FACE[c] ?? 1));
        }
      } else {
        group.append(...tile(x, y, mark));
        covered.push(`${tileWord(mark)} at row ${r + 1}, column ${c + 1}`);
        if (id === placed) group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL_H - 4, rx: 5, fill: "none", stroke: "#1a6fd6", "stroke-width": 2.5 }));
      }
      if (fits) {
        const move = ctx.moves.find((entry) => get(entry.action, "type") === "place" && get(entry.action, "space") === id);
        if (move) playable(group, move, ctx);
        else group.append(svg("title", {}, `The dice fit row ${r + 1}, column ${c + 1}`));
      }
      parts.push(group);
    }
  }
  // Wheelbarrows (bonus tiles) over their six spaces.
  list(get(player, "bonus_tiles")).forEach((bonus, index) => {
    const row = num(get(bonus, "row"));
    const col = num(get(bonus, "col"));
    const height = num(get(bonus, "height"));
    const wide = num(get(bonus, "width"));
    if (row === undefined || col === undefined || height === undefined || wide === undefined) return;
    const x = LEFT + (col - 1) * CELL;
    const y = TOP + (row - 1) * CELL_H;
    parts.push(svg("rect", { x: x + 2, y: y + 2, width: wide * CELL - 4, height: height * CELL_H - 4, rx: 8, fill: "#8c4a12", "fill-opacity": 0.12, stroke: "#8c4a12", "stroke-width": 3, "stroke-dasharray": "8 4" }));
    parts.push(svg("rect", { x: x + 4, y: y + 4, width: 84, height: 15, rx: 3, fill: "#8c4a12" }));
    parts.push(text(x + 46, y + 15, `wheelbarrow ${index + 1}`, { "font-size": 10, fill: "#ffffff" }));
  });
  // Tiles above the field.
  const yAbove = TOP + 5 * CELL_H + 8;
  parts.push(text(LEFT - 6, yAbove + 20, "above", { "font-size": 11, "text-anchor": "end", "font-weight": 600 }));
  if (above.length === 0) parts.push(text(LEFT + 4, yAbove + 20, "no tiles above the field", { "font-size": 11, "text-anchor": "start", fill: "#59636e" }));
  const shown = above.length > 9 ? 7 : 9;
  [...above].slice(0, shown).forEach((mark, index) => {
    const x = LEFT + index * (CELL * 0.7);
    const g = svg("g", { transform: `translate(${x} ${yAbove}) scale(0.7)` }, ...tile(0, 0, mark));
    parts.push(g);
  });
  if (above.length > shown) {
    const bags = [...above].filter((mark) => mark === "M" || mark === "Y").length;
    parts.push(text(LEFT + shown * CELL * 0.7 + 4, yAbove + 14, `and ${above.length - shown} more`, { "font-size": 11, "text-anchor": "start", fill: "#3d4650" }));
    parts.push(text(LEFT + shown * CELL * 0.7 + 4, yAbove + 28, `(${above.length - bags} tulips, ${bags} bags in all)`, { "font-size": 10, "text-anchor": "start", fill: "#59636e" }));
  }
  const height = yAbove + CELL_H * 0.7 + 6;
  const label = `${seatName(ctx, seat)}'s field: ${covered.length ? covered.join("; ") : "empty"}${above.length ? `; ${above.length} tiles above the field` : ""}.`;
  const picture = frame(width, height, label, ...parts);
  picture.classList.add("tf-field-svg");
  return picture;
}

/** Dice the viewer picked to roll again, kept across redraws of the same roll. */
let picked: { key: string; dice: Set<number> } = { key: "", dice: new Set() };

/** The dice as rolled; on the viewer's turn, pick dice to roll again and roll them. */
function diceTray(view: Json, ctx: BoardContext): HTMLElement {
  const turn = get(view, "turn");
  const dice = list(get(turn, "dice"));
  const phase = str(get(get(view, "phase"), "phase")) ?? "";
  const active = num(get(view, "active")) ?? 0;
  const rollNumber = num(get(turn, "roll_number")) ?? 0;
  const bought = num(get(turn, "rolls_bought")) ?? 0;
  // A reroll is listed as a form (any set of dice), not as moves: it is legal on the viewer's
  // live turn while rolls are left (rules §3.2, A3).
  const live = ctx.you === active && (ctx.moves.length > 0 || (phase === "roll_bought" && ctx.toAct.includes(active)));
  const canReroll = live && ((phase === "rolling" && rollNumber < 3 + bought) || phase === "roll_bought");
  const rerollMove = (wanted: number[]): BoardMove => {
    const numbers = wanted.map((die) => String(die + 1));
    const said = numbers.length <= 1 ? numbers.join("") : `${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
    const dieWord = wanted.length === 1 ? "die" : "dice";
    return { action: { type: "reroll", dice: wanted }, label: `Reroll ${dieWord} ${said}`, text: `${seatName(ctx, active)} rerolled ${dieWord} ${said}.` };
  };
  const key = `${active}:${rollNumber}:${bought}:${JSON.stringify(dice)}`;
  if (picked.key !== key) picked = { key, dice: new Set() };
  const tray = h("section", { class: "tf-tray", "aria-label": "The dice" });
  const draw = (): void => {
    const dieElements = dice.map((die, index) => {
      const value = num(get(die, "value"));
      const onBonus = num(get(die, "on_bonus"));
      const picture = svg("svg", { viewBox: "0 0 40 40", class: "tf-die-svg", "aria-hidden": "true" }, svg("rect", { x: 1, y: 1, width: 38, height: 38, rx: 7, fill: onBonus !== undefined ? "#f3e0c8" : "#ffffff", stroke: "#1f2328", "stroke-width": 1.5 }), ...(value !== undefined ? pips(0, 0, 40, value) : [text(20, 26, "?", { "font-size": 18, fill: "#59636e" })]));
      const chosen = picked.dice.has(index);
      const caption = value === undefined ? (onBonus !== undefined ? `wheelbarrow ${onBonus + 1}` : "not rolled") : chosen ? "roll again" : canReroll ? "keep" : onBonus !== undefined ? `wheelbarrow ${onBonus + 1}` : "";
      const element = h("div", { class: `tf-die${chosen ? " tf-picked" : ""}` }, picture, h("span", { class: "tf-die-caption" }, `die ${index + 1}`), caption ? h("span", { class: "tf-die-caption" }, caption) : null);
      if (value !== undefined && canReroll) {
        element.setAttribute("role", "button");
        element.setAttribute("tabindex", "0");
        element.setAttribute("aria-pressed", String(chosen));
        element.setAttribute("aria-label", `Die ${index + 1} showing ${value}${onBonus !== undefined ? `, on wheelbarrow ${onBonus + 1}` : ""}: ${chosen ? "roll it again" : "keep it"} (press to change)`);
        element.classList.add("tf-pickable");
        const toggle = (): void => {
          if (picked.dice.has(index)) picked.dice.delete(index);
          else picked.dice.add(index);
          draw();
          tray.querySelector<HTMLElement>(`[data-die="${index}"]`)?.focus();
        };
        element.dataset.die = String(index);
        element.addEventListener("click", toggle);
        element.addEventListener("keydown", (event) => {
          if (event.key !== "Enter" && event.key !== " ") return;
          event.preventDefault();
          toggle();
        });
      } else {
        element.setAttribute("role", "img");
        element.setAttribute("aria-label", `Die ${index + 1}: ${value === undefined ? "not rolled yet" : `showing ${value}`}${onBonus !== undefined ? `, on wheelbarrow ${onBonus + 1}` : ""}`);
      }
      return element;
    });
    const controls: Element[] = [];
    // Wheelbarrow dice at turn start: choose each one's face.
    const setters = ctx.moves.filter((move) => get(move.action, "type") === "set_bonus_die");
    const wheelbarrows = [...new Set(setters.map((move) => num(get(move.action, "bonus")) ?? 0))];
    for (const bonus of wheelbarrows) {
      const faces = setters
        .filter((move) => num(get(move.action, "bonus")) === bonus)
        .map((move) => {
          const face = num(get(move.action, "face")) ?? 1;
          const button = h("span", { class: "tf-face" }, svg("svg", { viewBox: "0 0 30 30", class: "tf-face-svg", "aria-hidden": "true" }, ...dieFace(1, 1, 28, face)));
          return playable(button, move, ctx);
        });
      controls.push(h("div", { class: "tf-strip" }, h("span", { class: "tf-label" }, `Wheelbarrow ${bonus + 1} die shows:`), faces));
    }
    const roll = ctx.moves.find((move) => get(move.action, "type") === "roll");
    if (roll) controls.push(playable(h("span", { class: "tf-button" }, "Roll the dice"), roll, ctx));
    if (canReroll) {
      const wanted = [...picked.dice].sort((a, b) => a - b);
      if (wanted.length > 0) {
        const move = rerollMove(wanted);
        controls.push(playable(h("span", { class: "tf-button" }, move.label), move, ctx));
      } else controls.push(h("p", { class: "tf-hint tf-do" }, phase === "roll_bought" ? "Tap the dice to roll again, then roll them." : "Tap the dice you want to roll again, then roll them; or tap a lit space to plant a tulip there."));
    } else if (live && ctx.moves.some((move) => get(move.action, "type") === "place")) controls.push(h("p", { class: "tf-hint tf-do" }, "No rolls left: tap a lit space to plant a tulip there."));
    const above = ctx.moves.find((move) => get(move.action, "type") === "place_above");
    if (above) controls.push(playable(h("span", { class: "tf-button tf-secondary" }, "No space fits: place a tulip above the field"), above, ctx));
    const end = ctx.moves.find((move) => get(move.action, "type") === "end_turn");
    if (end) controls.push(playable(h("span", { class: "tf-button tf-secondary" }, "End the turn"), end, ctx));
    const maxRolls = 3 + bought;
    const rollWords = rollNumber === 0 ? "not rolled yet" : `roll ${rollNumber} of ${maxRolls}${bought ? ` (${bought} bought)` : ""}`;
    tray.replaceChildren(
      h("h3", {}, `${seatName(ctx, active)}'s dice · ${rollWords}`),
      h("div", { class: "tf-dice" }, dieElements.length ? dieElements : h("span", { class: "tf-hint" }, "no dice")),
      ...controls,
      phase === "roll_bought" ? h("p", { class: "tf-hint" }, "Two tiles were turned to moneybags: the bought roll must be made now.") : "",
    );
  };
  draw();
  return tray;
}

function statusLine(view: Json, ctx: BoardContext): HTMLElement {
  const result = get(view, "result");
  const active = num(get(view, "active")) ?? 0;
  const phase = str(get(get(view, "phase"), "phase")) ?? "";
  if (result !== null && result !== undefined) {
    if (str(get(result, "type")) === "winner") {
      const condition = str(get(result, "condition"));
      const how = condition === "row_four_complete" ? "filled row 4" : condition === "row_five_three_adjacent" ? "covered three side by side in row 5" : "covered four spaces of row 5";
      return h("p", { class: "tf-status" }, `Game over: ${seatName(ctx, num(get(result, "seat")) ?? 0)} ${how} and wins.`);
    }
    const scores = list(get(result, "round_scores")).map((score) => String(num(score) ?? 0));
    return h("p", { class: "tf-status" }, `Game over: ${scores.join(" + ")} = ${num(get(result, "total")) ?? 0} tiles (${(str(get(result, "tier")) ?? "").replace(/_/g, " ")}).`);
  }
  const what: Record<string, string> = {
    await_bonus_dice: "sets the wheelbarrow dice",
    await_first_roll: "rolls",
    rolling: "rolls again or plants a tulip",
    roll_bought: "makes the bought roll",
    after_placement: "may claim a wheelbarrow, then ends the turn",
    solo_between_rounds: "places the multicoloured tile for the next round",
  };
  const solo = get(view, "solo");
  return h(
    "p",
    { class: "tf-status" },
    `Turn ${num(get(view, "turn_number")) ?? 1}${solo ? `, round ${num(get(solo, "round")) ?? 1} of 3` : ""} · ${seatName(ctx, active)} ${what[phase] ?? "plays"} · wheelbarrows left: ${num(get(view, "bonus_supply")) ?? 0}`,
  );
}

export function tulpenfieber(view: Json, ctx: BoardContext): Element | null {
  const players = list(get(view, "players"));
  if (players.length === 0) return null;
  const active = num(get(view, "active")) ?? 0;
  const over = get(view, "result") !== null && get(view, "result") !== undefined;
  const order = players.map((player, index) => ({ player, seat: num(get(player, "seat")) ?? index })).sort((a, b) => Number(b.seat === active) - Number(a.seat === active));
  const fields = order.map(({ player, seat }) => {
    const isActive = seat === active && !over;
    const dice = num(get(player, "dice_count"));
    return h(
      "section",
      { class: isActive ? "tf-player tf-active" : "tf-player", "aria-label": `${seatName(ctx, seat)}'s field` },
      h(
        "h3",
        {},
        seatName(ctx, seat),
        seat === ctx.you ? " (you)" : "",
        h("span", { class: "tf-note" }, ` · board ${str(get(player, "board")) === "back" ? "for solo" : str(get(player, "board")) ?? ""} · ${dice ?? 4} dice from the next turn · ${num(get(player, "tiles_total")) ?? 0} tiles`),
        isActive ? h("span", { class: "tf-turn" }, " · playing now") : "",
        over && num(get(get(view, "result"), "seat")) === seat ? h("span", { class: "tf-turn" }, " · winner") : "",
      ),
      field(view, ctx, player, seat, isActive),
    );
  });
  return h(
    "div",
    { class: "tf-board" },
    statusLine(view, ctx),
    over ? null : diceTray(view, ctx),
    h("div", { class: "tf-fields" }, fields),
    h(
      "p",
      { class: "tf-hint" },
      "A space needs the dice written on it (a lit space fits the dice now). Six or more alike fit any space. Wins at once: all of row 4 covered, three side by side in row 5, or any four in row 5. A line of 3, 4 or 5 tiles down from row 1 (straight or diagonal) gives a 5th, 6th or 7th die.",
    ),
  );
}
