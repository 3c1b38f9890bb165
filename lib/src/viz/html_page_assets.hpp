// The style sheet and script of the attention page (html_page.cpp), kept apart from the C++
// that writes the page around them. The script reads the attention file's JSON from the element
// #sawtag-attention and draws into each <section class="sentence">; words only ever reach the
// page through textContent, never as markup.
#pragma once

namespace sawtag::viz {

inline constexpr const char* kPageStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fff; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
h2 { font-size: 1.15em; margin: 0 0 .5em; }
p.about { max-width: 60em; color: #444; margin: 0 0 1.2em; }
section.sentence { border-top: 1px solid #ccc; padding: 1em 0 1.5em; }
p.note { color: #8a4b00; }
p.tagged { line-height: 2.4; margin: 0 0 .8em; }
.token { display: inline-block; margin-right: .7em; text-align: center; line-height: 1.2; }
.token .form { display: block; font-size: 1.1em; }
.token .tag { display: block; font-size: .75em; color: #08519c; font-family: monospace; }
.controls { margin-bottom: .8em; }
.controls label { margin-right: 1em; }
.views { display: flex; flex-wrap: wrap; gap: 2em; align-items: flex-start; }
.heatmaps { max-width: 100%; overflow: auto; }
.heatmap .grid { display: grid; gap: 1px; font-size: 12px; }
.heatmap .caption, .lines .caption { font-size: .85em; color: #555; margin-bottom: .4em; }
.cell { width: var(--cell); height: var(--cell); outline: 1px solid #eee; font-size: 10px;
        line-height: var(--cell); text-align: center; cursor: default; }
.overview { display: inline-grid; gap: 3px; align-items: center; margin-bottom: 1em;
            font-size: 11px; color: #555; }
.overview-label { padding-right: 4px; white-space: nowrap; }
.thumbnail { width: 40px; height: 40px; image-rendering: pixelated; border: 1px solid #ccc;
             cursor: pointer; }
.thumbnail.selected { border: 2px solid #d94801; }
.cell:hover { outline: 2px solid #d94801; }
.row-label { text-align: right; padding-right: 6px; white-space: nowrap; line-height: var(--cell); }
.column-label { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap;
                text-align: left; padding-top: 4px; line-height: var(--cell); }
.lines svg { font-size: 13px; }
.lines text { cursor: default; }
.lines text.active { font-weight: bold; fill: #d94801; }
.lines line.hidden { display: none; }
.token.explainable { cursor: pointer; border-radius: 3px; padding: 0 3px; }
.token.explainable:hover, .token.explainable:focus, .token.selected { background: #fdd0a2; }
.lines .caption { max-width: 20em; }  /* leaves room for the explanation beside it */
.explanation-view { flex: 0 1 26em; min-width: 18em; font-size: 13px; }
.explanation-view .hint { color: #555; margin: 0; }
.explanation .caption { font-size: .95em; color: #333; margin-bottom: .5em; }
.influence-row { display: grid; grid-template-columns: 6em 8em 4.5em auto; gap: .5em;
                 align-items: center; line-height: 1.6; }
.influence-word { text-align: right; overflow: hidden; text-overflow: ellipsis;
                  white-space: nowrap; }
.influence-track { height: 12px; background: #f0f0f0; }
.influence-bar { display: block; height: 100%; background: #2171b5; }
.influence-bar.negative { background: #cb181d; }
.influence-drop { font-family: monospace; text-align: right; }
.influence-masked { color: #555; font-size: 12px; white-space: nowrap; }
.explanation .own { color: #555; margin-top: .5em; }
#tooltip { position: fixed; pointer-events: none; background: #222; color: #fff; padding: 3px 7px;
           border-radius: 3px; font-size: 13px; white-space: nowrap; z-index: 10; }
)css";

inline constexpr const char* kPageScript = R"js(
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("sawtag-attention").textContent);
  const tooltip = document.getElementById("tooltip");
  const svgNamespace = "http://www.w3.org/2000/svg";
  // Up to this many cells in a sentence, every map is drawn when the page opens; beyond it
  // (long sentences) a map is drawn when it is first selected.
  const eagerCells = 250000;
  const lineThreshold = 0.01;  // lines for smaller weights would be invisible anyway
  const headColours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
                       "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];

  // White (0) to dark blue (1), as heat_colour() in markup.cpp: [red, green, blue].
  function heatChannels(weight) {
    const t = Math.min(1, Math.max(0, weight));
    const channel = (from, to) => Math.round(from + t * (to - from));
    return [channel(255, 8), channel(255, 48), channel(255, 107)];
  }

  function heatColour(weight) {
    return "rgb(" + heatChannels(weight).join(",") + ")";
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svgElement(tag, attributes) {
    const node = document.createElementNS(svgNamespace, tag);
    for (const name in attributes) node.setAttribute(name, attributes[name]);
    return node;
  }

  function mapName(layer, head) {
    return "layer " + (layer + 1) + " of " + data.layerCount + ", head " + (head + 1) + " of " +
           data.headCount;
  }

  // <div class="heatmap">: a caption, then a grid of the column labels, and per row its label
  // and n cells.
  function drawHeatmap(sentence, layer, head) {
    const words = sentence.words;
    const n = words.length;
    const map = element("div", "heatmap");
    map.dataset.layer = layer;
    map.dataset.head = head;
    map.appendChild(element("div", "caption",
                            mapName(layer, head) + ": row attends to column"));
    const grid = element("div", "grid");
    const cellSize = n <= 12 ? 34 : n <= 40 ? 18 : 12;
    const showWeights = n <= 12;  // big enough cells carry their weight as text
    grid.style.setProperty("--cell", cellSize + "px");
    grid.style.gridTemplateColumns = "max-content repeat(" + n + ", " + cellSize + "px)";
    grid.appendChild(element("div", "corner"));
    for (const word of words) grid.appendChild(element("div", "column-label", word));
    const weights = sentence.layers[layer][head];
    for (let i = 0; i < n; ++i) {
      grid.appendChild(element("div", "row-label", words[i]));
      for (let j = 0; j < n; ++j) {
        const cell = element("div", "cell");
        cell.dataset.i = i;
        cell.dataset.j = j;
        cell.style.background = heatColour(weights[i][j]);
        if (showWeights) {
          cell.textContent = weights[i][j].toFixed(2).replace(/^0/, "");
          cell.style.color = weights[i][j] > 0.5 ? "#fff" : "#333";
        }
        grid.appendChild(cell);
      }
    }
    map.appendChild(grid);
    return map;
  }

  // Lines from each word (left) to the words it attends to (right), opacity = weight, in the
  // way of bertviz's head view. Hovering a word on the left keeps only its lines.
  function drawLines(sentence, layer, head) {
    const words = sentence.words;
    const rowHeight = 20;
    const longest = Math.max(...words.map((word) => word.length));
    const labelWidth = Math.min(200, 8 * longest + 10);
    const gap = 140;
    const width = 2 * labelWidth + gap;
    const svg = svgElement("svg", {width: width, height: rowHeight * words.length + 10});
    const weights = sentence.layers[layer][head];
    const colour = headColours[head % headColours.length];
    const lines = [];
    words.forEach((word, i) => {
      const y = rowHeight * i + 15;
      const left = svgElement("text", {x: labelWidth - 4, y: y, "text-anchor": "end"});
      left.textContent = word;
      const right = svgElement("text", {x: labelWidth + gap + 4, y: y});
      right.textContent = word;
      svg.appendChild(left);
      svg.appendChild(right);
      left.addEventListener("mouseenter", () => focusRow(i, left));
      left.addEventListener("mouseleave", () => focusRow(-1, left));
    });
    words.forEach((_, i) => {
      words.forEach((__, j) => {
        const weight = weights[i][j];
        if (weight < lineThreshold) return;
        const line = svgElement("line", {
          x1: labelWidth, y1: rowHeight * i + 11, x2: labelWidth + gap, y2: rowHeight * j + 11,
          stroke: colour, "stroke-width": 3, "stroke-opacity": weight.toFixed(4)});
        line.dataset.i = i;
        svg.appendChild(line);
        lines.push(line);
      });
    });
    function focusRow(row, label) {
      label.classList.toggle("active", row >= 0);
      for (const line of lines) line.classList.toggle("hidden", row >= 0 && +line.dataset.i !== row);
    }
    const view = element("div", "lines");
    view.appendChild(element("div", "caption",
        mapName(layer, head) + ": each word (left) to the words it attends to (right)"));
    view.appendChild(svg);
    return view;
  }

  // All layers and heads at a glance, as bertviz's model view: a thumbnail per map (one pixel
  // per cell, scaled up), a row per layer; clicking one selects it.
  function drawOverview(sentence, select) {
    const n = sentence.words.length;
    const overview = element("div", "overview");
    overview.style.gridTemplateColumns = "max-content repeat(" + data.headCount + ", auto)";
    overview.appendChild(element("div", "corner"));
    for (let head = 0; head < data.headCount; ++head) {
      overview.appendChild(element("div", "overview-label", "head " + (head + 1)));
    }
    const thumbnails = [];
    for (let layer = 0; layer < data.layerCount; ++layer) {
      overview.appendChild(element("div", "overview-label", "layer " + (layer + 1)));
      for (let head = 0; head < data.headCount; ++head) {
        const canvas = element("canvas", "thumbnail");
        canvas.width = n;
        canvas.height = n;
        const context = canvas.getContext("2d");
        const image = context.createImageData(n, n);
        const weights = sentence.layers[layer][head];
        for (let i = 0; i < n; ++i) {
          for (let j = 0; j < n; ++j) {
            const pixel = 4 * (i * n + j);
            image.data.set(heatChannels(weights[i][j]), pixel);
            image.data[pixel + 3] = 255;
          }
        }
        context.putImageData(image, 0, 0);
        canvas.title = mapName(layer, head);
        canvas.dataset.layer = layer;
        canvas.dataset.head = head;
        canvas.addEventListener("click", () => select(layer, head));
        overview.appendChild(canvas);
        thumbnails.push(canvas);
      }
    }
    overview.markSelected = (layer, head) => {
      for (const thumbnail of thumbnails) {
        thumbnail.classList.toggle("selected",
            +thumbnail.dataset.layer === layer && +thumbnail.dataset.head === head);
      }
    };
    return overview;
  }

  function setUpSection(section, sentence) {
    const heatmaps = section.querySelector(".heatmaps");
    const linesView = section.querySelector(".lines-view");
    const layerSelect = section.querySelector("select.layer");
    const headSelect = section.querySelector("select.head");
    const drawn = new Map();  // "layer,head" -> its .heatmap
    const n = sentence.words.length;
    function heatmapOf(layer, head) {
      const key = layer + "," + head;
      if (!drawn.has(key)) {
        const map = drawHeatmap(sentence, layer, head);
        map.hidden = true;
        heatmaps.appendChild(map);
        drawn.set(key, map);
      }
      return drawn.get(key);
    }
    const overview = drawOverview(sentence, (layer, head) => {
      layerSelect.value = layer;
      headSelect.value = head;
      show();
    });
    section.querySelector(".overview-place").appendChild(overview);
    function show() {
      const layer = +layerSelect.value;
      const head = +headSelect.value;
      for (const map of drawn.values()) map.hidden = true;
      heatmapOf(layer, head).hidden = false;
      linesView.replaceChildren(drawLines(sentence, layer, head));
      overview.markSelected(layer, head);
    }
    if (data.layerCount * data.headCount * n * n <= eagerCells) {
      for (let layer = 0; layer < data.layerCount; ++layer) {
        for (let head = 0; head < data.headCount; ++head) heatmapOf(layer, head);
      }
    }
    layerSelect.addEventListener("change", show);
    headSelect.addEventListener("change", show);
    heatmaps.addEventListener("mouseover", (event) => {
      const cell = event.target;
      if (!cell.classList.contains("cell")) return;
      const map = cell.closest(".heatmap");
      const i = +cell.dataset.i;
      const j = +cell.dataset.j;
      const weight = sentence.layers[+map.dataset.layer][+map.dataset.head][i][j];
      tooltip.textContent = "\u201c" + sentence.words[i] + "\u201d \u2192 \u201c" +
                            sentence.words[j] + "\u201d: " + weight.toFixed(4);
      tooltip.hidden = false;
    });
    heatmaps.addEventListener("mousemove", (event) => {
      tooltip.style.left = event.clientX + 14 + "px";
      tooltip.style.top = event.clientY + 14 + "px";
    });
    heatmaps.addEventListener("mouseleave", () => { tooltip.hidden = true; });
    show();
  }

  // "+0.610", "−0.004", "0.000" (no sign when it rounds to 0, as in the terminal view): a drop
  // of a tag's probability when a word is masked.
  function signedDrop(value) {
    if (Math.abs(value) < 0.0005) return "0.000";
    return (value < 0 ? "\u2212" : "+") + Math.abs(value).toFixed(3);
  }

  // The explanation of `word` (an entry of the explanation JSON's "words"): its tags, a bar per
  // other word (strongest first, as in the JSON; blue: masking it lowers the tag's probability,
  // red: raises it), and what masking its own form does.
  function drawExplanation(word) {
    const panel = element("div", "explanation");
    panel.appendChild(element("div", "caption",
        "\u201c" + word.form + "\u201d (word " + word.id + ") is " + word.upos + " (" +
        word.upos_prob.toFixed(3) + "; XPOS " + word.xpos + " " + word.xpos_prob.toFixed(3) +
        "). Masking each other word lowers that probability by:"));
    for (const other of word.influence) {
      const row = element("div", "influence-row");
      row.dataset.id = other.id;
      row.appendChild(element("span", "influence-word", other.form));
      const track = element("span", "influence-track");
      const bar = element("span", other.drop < 0 ? "influence-bar negative" : "influence-bar");
      bar.style.width = (100 * Math.min(1, Math.abs(other.drop))).toFixed(1) + "%";
      track.appendChild(bar);
      row.appendChild(track);
      row.appendChild(element("span", "influence-drop", signedDrop(other.drop)));
      row.appendChild(element("span", "influence-masked", "then " + other.tag_when_masked));
      panel.appendChild(row);
    }
    panel.appendChild(element("div", "own", "Its own form masked: " +
        signedDrop(word.self.drop) + ", then " + word.self.tag_when_masked + "."));
    return panel;
  }

  // Clicking a word of the section (or Enter on it) shows its explanation beside the maps.
  function setUpExplanations(section, explained) {
    const tokens = section.querySelectorAll("p.tagged .token");
    const place = element("div", "explanation-view");
    section.querySelector(".views").appendChild(place);
    if (explained.words.length !== tokens.length) {
      place.appendChild(element("p", "hint", "No explanation for this sentence."));
      return;
    }
    place.appendChild(element("p", "hint",
        "Click a word above to see which words its tag depends on."));
    tokens.forEach((token, index) => {
      token.classList.add("explainable");
      token.tabIndex = 0;
      token.addEventListener("click", () => {
        tokens.forEach((other) => other.classList.toggle("selected", other === token));
        place.replaceChildren(drawExplanation(explained.words[index]));
      });
      token.addEventListener("keydown", (event) => {
        if (event.key === "Enter") token.click();
      });
    });
  }

  const first = data.sentences.length > 0 ? data.sentences[0].layers : [];
  data.layerCount = first.length;
  data.headCount = first.length > 0 ? first[0].length : 0;
  document.querySelectorAll("section.sentence[data-index]").forEach((section) => {
    setUpSection(section, data.sentences[+section.dataset.index]);
  });
  const explanationData = document.getElementById("sawtag-explanations");
  if (explanationData) {
    const explained = JSON.parse(explanationData.textContent).sentences;
    document.querySelectorAll("section.sentence[data-index]").forEach((section) => {
      setUpExplanations(section, explained[+section.dataset.index]);
    });
    // "#explain=1-4": click word 4 of sentence 1 (both counted from 1), so that a link (or a
    // test) can open an explanation.
    const wanted = /^#explain=(\d+)-(\d+)$/.exec(window.location.hash);
    const section = wanted && document.querySelectorAll("section.sentence")[+wanted[1] - 1];
    const token = section && section.querySelectorAll(".token.explainable")[+wanted[2] - 1];
    if (token) token.click();
  }
})();
)js";

}  // namespace sawtag::viz
