package check

import (
	"html"
	"regexp"
	"strings"
)

// markdownHTML renders the report's Markdown as one HTML page, so the page opens in a browser with
// its pictures beside it. It knows only what WriteMarkdown writes: headings, pipe tables, list items,
// paragraphs, images, links, `code` and **bold**.
func markdownHTML(md, title string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html.EscapeString(title) + "</title>\n")
	b.WriteString("<style>body{font-family:sans-serif;max-width:100em;margin:1em auto;padding:0 1em}" +
		"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:2px 6px;text-align:left}" +
		"code{background:#f2f2f2}img{image-rendering:pixelated;vertical-align:top;margin:2px}</style></head><body>\n")
	lines := strings.Split(md, "\n")
	para := false
	endPara := func() {
		if para {
			b.WriteString("</p>\n")
			para = false
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.TrimSpace(l) == "":
			endPara()
		case strings.HasPrefix(l, "#"):
			endPara()
			n := len(l) - len(strings.TrimLeft(l, "#"))
			tag := "h" + string(rune('0'+n))
			b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(l[n:])) + "</" + tag + ">\n")
		case strings.HasPrefix(l, "|"):
			endPara()
			b.WriteString("<table>\n")
			for row := 0; i < len(lines) && strings.HasPrefix(lines[i], "|"); i, row = i+1, row+1 {
				if row == 1 && strings.HasPrefix(lines[i], "|---") {
					continue
				}
				cell := "td"
				if row == 0 {
					cell = "th"
				}
				b.WriteString("<tr>")
				for _, c := range splitRow(lines[i]) {
					b.WriteString("<" + cell + ">" + inline(c) + "</" + cell + ">")
				}
				b.WriteString("</tr>\n")
			}
			i--
			b.WriteString("</table>\n")
		case strings.HasPrefix(l, "- "):
			endPara()
			b.WriteString("<ul>\n")
			for ; i < len(lines) && strings.HasPrefix(lines[i], "- "); i++ {
				b.WriteString("<li>" + inline(lines[i][2:]) + "</li>\n")
			}
			i--
			b.WriteString("</ul>\n")
		default:
			if !para {
				b.WriteString("<p>")
				para = true
			} else {
				b.WriteString("\n")
			}
			b.WriteString(inline(l))
		}
	}
	endPara()
	b.WriteString("</body></html>\n")
	return b.String()
}

// splitRow splits a pipe-table row into its cells (the report's cells hold no pipes).
func splitRow(l string) []string {
	cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

var (
	mdImage = regexp.MustCompile(`!\[([^\]]*)\]\(([^)]+)\)`)
	mdLink  = regexp.MustCompile(`\[([^\]]*)\]\(([^)]+)\)`)
	mdCode  = regexp.MustCompile("`([^`]*)`")
	mdBold  = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inline renders one line's inline Markdown, escaping the rest. Code spans are set aside first, so
// that what they hold stays literal.
func inline(s string) string {
	var codes []string
	s = mdCode.ReplaceAllStringFunc(s, func(m string) string {
		codes = append(codes, "<code>"+html.EscapeString(m[1:len(m)-1])+"</code>")
		return "\x00"
	})
	s = html.EscapeString(s)
	s = mdImage.ReplaceAllString(s, `<img alt="$1" src="$2">`)
	s = mdLink.ReplaceAllString(s, `<a href="$2">$1</a>`)
	s = mdBold.ReplaceAllString(s, `<b>$1</b>`)
	for _, c := range codes {
		s = strings.Replace(s, "\x00", c, 1)
	}
	return s
}
