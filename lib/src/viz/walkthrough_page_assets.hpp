// The style sheet and script of the walkthrough page (walkthrough_page.cpp), kept apart from
// the C++ that writes the page around them. The script reads the walkthrough's JSON
// (docs/walkthrough-format.md, cut to the first columns: "shown_columns") from the element
// #sawtag-walkthrough and draws the steps into #steps; words only ever reach the page through
// textContent, never as markup.
#pragma once

namespace sawtag::viz {

inline constexpr const char* kWalkthroughStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fff;
       max-width: 72em; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
h2 { font-size: 1.1em; margin: 0 0 .4em; }
p.about { color: #444; margin: 0 0 1em; }
p.tagged { line-height: 2.4; margin: 0 0 .6em; }
.token { display: inline-block; margin-right: .5em; text-align: center; line-height: 1.2;
         cursor: pointer; border-radius: 3px; padding: 2px 5px; }
.token:hover, .token:focus { background: #fdd0a2; }
.token.selected { background: #d94801; color: #fff; }
.token.selected .tag { color: #fff; }
.token .form { display: block; font-size: 1.1em; }
.token .tag { display: block; font-size: .75em; color: #08519c; font-family: monospace; }
.controls { margin-bottom: .6em; }
.controls label { margin-right: 1em; }
#summary { color: #444; }
section.step { border-top: 1px solid #ccc; padding: .8em 0 1em; }
section.step p { margin: .3em 0; max-width: 60em; }
p.model-note { color: #8a4b00; }
.matrices { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
table.numbers { border-collapse: collapse; font-family: monospace; font-size: 12px;
                margin: .3em 0 .6em; }
table.numbers caption { text-align: left; font-family: system-ui, sans-serif; font-size: 13px;
                        color: #333; padding-bottom: 3px; white-space: nowrap; }
table.numbers td, table.numbers th { padding: 1px 5px; text-align: right; }
table.numbers th { font-weight: normal; color: #555; white-space: nowrap; }
table.numbers th.row-label { text-align: left; }
table.numbers tr.followed th.row-label { color: #d94801; font-weight: bold; }
table.numbers tr.followed td { background: #fdebd9; }
table.numbers tr.followed td[style] { outline: 2px solid #d94801; outline-offset: -2px; }
table.numbers td.more { color: #888; }
.formula { font-family: monospace; background: #f6f6f6; padding: 3px 6px; }
)css";

inline constexpr const char* kWalkthroughScript = R"js(
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("sawtag-walkthrough").textContent);
  const model = data.model;
  const shown = data.shown_columns || Infinity;
  const n = data.words.length;
  const steps = document.getElementById("steps");
  const summary = document.getElementById("summary");
  const layerSelect = document.getElementById("layer");
  const headSelect = document.getElementById("head");
  const tokens = Array.from(document.querySelectorAll(".token"));
  let word = Number(document.body.dataset.word);

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  // As number_text() in number_table.cpp: at most 7 characters, up to 3 decimals.
  function number(value) {
    if (value === null) return "\u2013";
    for (const digits of [3, 2, 1, 0]) {
      let text = value.toFixed(digits);
      if (/^-0(\.0*)?$/.test(text)) text = text.slice(1);
      if (text.length <= 7) return text;
    }
    return value.toExponential(0);
  }
  function quoted(i) { return "\u201c" + data.words[i] + "\u201d"; }
  function shape(rows, cols) { return "[" + rows + " \u00d7 " + cols + "]"; }
  function firstColumns(cols) {
    return cols > shown ? ", first " + shown + " columns" : "";
  }
  // White (0) to dark blue (1), as the attention page's heatChannels.
  function heat(weight) {
    const t = Math.min(1, Math.max(0, weight));
    const channel = (from, to) => Math.round(from + t * (to - from));
    return "rgb(" + channel(255, 8) + "," + channel(255, 48) + "," + channel(255, 107) + ")";
  }
  function cell(row, value, shaded) {
    const td = element("td", "", number(value));
    if (shaded) {
      td.style.background = heat(value);
      if (value > 0.5) td.style.color = "#fff";
    }
    row.appendChild(td);
  }
  // rows: [label, values, followed]; cols: the matrix's real width.
  function table(caption, rows, cols, columnLabels, shaded) {
    const node = element("table", "numbers");
    node.appendChild(element("caption", "", caption));
    if (columnLabels) {
      const header = element("tr");
      header.appendChild(element("th"));
      for (const label of columnLabels) header.appendChild(element("th", "", label));
      node.appendChild(header);
    }
    for (const [label, values, followed] of rows) {
      const row = element("tr", followed ? "followed" : "");
      row.appendChild(element("th", "row-label", label));
      for (const value of values) cell(row, value, shaded);
      if (cols > values.length) row.appendChild(element("td", "more", "\u2026"));
      node.appendChild(row);
    }
    return node;
  }
  function wordTable(name, matrix, cols) {
    const rows = matrix.map((values, i) => [data.words[i], values, i === word]);
    return table(name + "  " + shape(n, cols) + firstColumns(cols), rows, cols);
  }
  function weightTable(name, matrix, rows, cols, biasName, bias) {
    const shownRows = matrix.map((values, r) => ["row " + (r + 1), values, false]);
    shownRows.push([biasName, bias, false]);
    const caption = name + "  " + shape(rows, cols) + ", rows 1\u2013" + matrix.length +
                    firstColumns(cols) + "; " + biasName + "  [" + cols + "]";
    return table(caption, shownRows, cols);
  }
  function wordByWord(caption, matrix, shaded) {
    const rows = matrix.map((values, i) => [data.words[i], values, i === word]);
    return table(caption + "  " + shape(n, n), rows, n, data.words, shaded);
  }
  function step(number, title) {
    const section = element("section", "step");
    section.dataset.step = number;
    section.id = "step-" + number;
    section.appendChild(element("h2", "", number + ". " + title));
    steps.appendChild(section);
    return section;
  }
  function paragraph(section, text, className) {
    return section.appendChild(element("p", className, text));
  }
  function note(section, text) {
    const node = paragraph(section, "", "model-note");
    node.appendChild(element("b", "", "Model: "));
    node.appendChild(document.createTextNode(text));
  }
  function group(section, tables) {
    const box = section.appendChild(element("div", "matrices"));
    for (const node of tables) box.appendChild(node);
  }

  function render() {
    const layer = data.layers[Number(layerSelect.value)];
    const head = layer.heads[Number(headSelect.value)];
    const d = model.head_dim, dModel = model.d_model;
    const L = layer.layer, H = head.head;
    steps.replaceChildren();
    for (const token of tokens) {
      token.classList.toggle("selected", Number(token.dataset.word) === word);
    }
    summary.textContent = "Layer " + L + " of " + model.num_layers + ", head " + H + " of " +
        model.num_heads + ", following word " + (word + 1) + " " + quoted(word) + ". n = " + n +
        " words, d_model = " + dModel + ", d = " + d + " (the head size: d_model / " +
        model.num_heads + " heads).";

    let section = step(1, "Input vectors: a\u1d62 = x\u1d62 + e\u1d62");
    paragraph(section, "x\u1d62: word i\u2019s features (its word vector, its characters and " +
        "its shape) times the input projection W_in, plus b_in; e\u1d62: the sinusoidal position " +
        "vector of word i (i from 0).");
    group(section, [wordTable("x", data.input.projected, dModel),
                    wordTable("e", data.input.position, dModel),
                    wordTable("a = x + e: the input of layer 1", data.input.a, dModel)]);
    if (L > 1) {
      paragraph(section, "Layers 1\u2013" + (L - 1) + " turn it into the input of layer " + L +
          " (each as below, then a residual connection and a feed-forward network).");
    }

    section = step(2, "The rows that enter attention in layer " + L + ": a\u1d62");
    note(section, "pre-norm layers: attention reads a\u1d62 = LN\u2081(x\u1d62), the layer\u2019s " +
        "input normalised.");
    group(section, [wordTable("a = LN\u2081(input of layer " + L + ")", layer.a, dModel)]);

    section = step(3, "Queries, keys and values: q\u1d62 = a\u1d62 W^q + b^q, k\u1d62 = a\u1d62 W^k + b^k, " +
        "v\u1d62 = a\u1d62 W^v + b^v");
    paragraph(section, "Head " + H + "\u2019s W^q is columns " + ((H - 1) * d + 1) + "\u2013" +
        (H * d) + " of the layer\u2019s " + dModel + " \u00d7 " + dModel + " W^q (and so for " +
        "W^k, W^v).");
    group(section, [weightTable("W^q", head.W_q, dModel, d, "b^q", head.b_q),
                    weightTable("W^k", head.W_k, dModel, d, "b^k", head.b_k),
                    weightTable("W^v", head.W_v, dModel, d, "b^v", head.b_v)]);
    group(section, [wordTable("q", head.q, d), wordTable("k", head.k, d),
                    wordTable("v", head.v, d)]);

    section = step(4, "Scores: \u03b1\u1d62,\u2c7c = q\u1d62 \u00b7 k\u2c7c / \u221ad, with \u221a" + d +
        " = " + number(Math.sqrt(d)));
    paragraph(section, "Row i: the word that asks; column j: the word asked.");
    const tables = [wordByWord("scores \u03b1", head.scores, false)];
    if (model.relative_position) {
      note(section, "a learned bias by distance j \u2212 i (clipped to \u00b1" +
          model.max_relative_distance + ") is added to \u03b1\u1d62,\u2c7c.");
      tables.push(wordByWord("position bias", head.position_bias, false));
    }
    group(section, tables);

    section = step(5, "Weights: \u03b1\u2032\u1d62,\u2c7c = softmax over j of " +
        (model.relative_position ? "\u03b1\u1d62,\u2c7c + bias\u1d62,\u2c7c" : "\u03b1\u1d62,\u2c7c") +
        "; each row sums to 1");
    const s = head.scores[word].map((score, j) => score + head.position_bias[word][j]);
    const top = Math.max(...s);
    const exps = s.map((value) => Math.exp(value - top));
    const sum = exps.reduce((a, b) => a + b, 0);
    group(section, [wordByWord("weights \u03b1\u2032", head.weights, true),
                    table("for " + quoted(word) + " (row " + (word + 1) + ")  " + shape(4, n),
                          [["s = \u03b1 + bias", s, false], ["exp(s \u2212 max)", exps, false],
                           ["\u00f7 " + number(sum), exps.map((value) => value / sum), true]],
                          n, data.words, false)]);

    section = step(6, "Head output: b\u1d62 = \u03a3\u2c7c \u03b1\u2032\u1d62,\u2c7c v\u2c7c");
    const terms = head.weights[word].map((weight, j) => number(weight) + " v" + (j + 1));
    paragraph(section, "b" + (word + 1) + " = " + terms.join(" + "), "formula");
    group(section, [wordTable("b", head.b, d)]);

    section = step(7, "All heads: output\u1d62 = [b\u1d62\u00b9 \u2026 b\u1d62^" + model.num_heads +
        "] W^o + b^o");
    paragraph(section, "The heads\u2019 b side by side (head " + H + "\u2019s in columns " +
        ((H - 1) * d + 1) + "\u2013" + (H * d) + "), times W^o.");
    group(section, [wordTable("concat", layer.concat, dModel),
                    weightTable("W^o", layer.W_o, dModel, dModel, "b^o", layer.b_o),
                    wordTable("output = concat W^o + b^o", layer.output, dModel)]);
    note(section, "residual connection: the layer\u2019s input x\u1d62 is added to output\u1d62.");
    note(section, "then a feed-forward network, pre-norm and residual: x + FFN(LN\u2082(x)).");

    section = step(8, "Tag of " + quoted(word) + " (word " + (word + 1) + "): " + data.tags[word] +
        ", probability " + number(data.probabilities[word]));
    paragraph(section, "All: " + data.words.map((form, i) => form + "/" + data.tags[i]).join(" "));
    note(section, "after layer " + model.num_layers + ", a final layer norm, then a linear " +
        "classifier and softmax.");
    if (model.num_taggers > 1) {
      note(section, "the tag averages " + model.num_taggers + " taggers\u2019 logits; the " +
          "steps above are the first\u2019s.");
    }
  }

  for (const token of tokens) {
    const follow = () => { word = Number(token.dataset.word); render(); };
    token.addEventListener("click", follow);
    token.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); follow(); }
    });
  }
  layerSelect.addEventListener("change", render);
  headSelect.addEventListener("change", render);
  render();
  // "page.html#word=2" clicks word 2 as the page opens; "#word=2&step=4" also scrolls to step 4.
  const wanted = /^#word=(\d+)(?:&step=(\d+))?$/.exec(window.location.hash);
  if (wanted && tokens[Number(wanted[1]) - 1]) tokens[Number(wanted[1]) - 1].click();
  const shownStep = wanted && wanted[2] && steps.querySelector("[data-step=\"" + wanted[2] + "\"]");
  if (shownStep) shownStep.scrollIntoView();
})();
)js";

}  // namespace sawtag::viz
