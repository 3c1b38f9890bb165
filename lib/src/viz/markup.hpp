// What the HTML page and the SVG heat map share: escaping text, and the colour of a weight.
#pragma once

#include <string>
#include <string_view>

namespace sawtag::viz {

// Text safe in markup content and in quoted attribute values:
// "<b>x</b> & 'y'" -> "&lt;b&gt;x&lt;/b&gt; &amp; &#39;y&#39;".
std::string escape_markup(std::string_view text);

// A weight in [0, 1] as a colour on a linear scale from white (0) to dark blue (1), "#rrggbb".
// The page's script draws with the same scale (html_page_script.hpp, heatColour).
std::string heat_colour(float weight);

}  // namespace sawtag::viz
