package check

import (
	"strings"
	"testing"
)

// TestMarkdownHTML: the report's Markdown constructs become HTML, text is escaped, code stays literal.
func TestMarkdownHTML(t *testing.T) {
	md := "# Title <x>\n\n| A | B |\n|---|---|\n| `a<b` | **bold** |\n\n- item [link](r.md)\n- two\n\n" +
		"one ![got](c-got.png) line\nnext line\n"
	got := markdownHTML(md, "T")
	for _, want := range []string{
		"<h1>Title &lt;x&gt;</h1>",
		"<tr><th>A</th><th>B</th></tr>\n<tr><td><code>a&lt;b</code></td><td><b>bold</b></td></tr>\n</table>",
		"<ul>\n<li>item <a href=\"r.md\">link</a></li>\n<li>two</li>\n</ul>",
		"<p>one <img alt=\"got\" src=\"c-got.png\"> line\nnext line</p>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "|---") {
		t.Errorf("separator row rendered:\n%s", got)
	}
}
