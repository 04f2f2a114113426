package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/rscheck/rscheck/validator"
)

// WriteText writes r for a terminal: per document a header line and its
// findings, one per line as
//
//	source:line:col: severity RULE message [§spec]
//
// followed by the element path and the source excerpt when known; then
// the discovery summary and the hierarchy of an exploration, and a final
// summary line. With opts.Color, severities and statuses are coloured.
func WriteText(w io.Writer, r *Result, opts Options) error {
	bw := bufio.NewWriter(w)
	t := &textWriter{w: bw, p: painter(opts.Color)}
	for i, rep := range r.Documents {
		// A blank line sets off documents with findings; documents
		// without any stay one line each, so that a large Source reads as
		// a list with its problems standing out.
		if i > 0 && (len(rep.Findings) > 0 || len(r.Documents[i-1].Findings) > 0) {
			t.printf("\n")
		}
		t.document(r, i, rep)
	}
	if len(r.Discovery) > 0 {
		t.printf("\n%s\n", t.p.bold("Discovery"))
		for _, d := range r.Discovery {
			t.discovery(d)
		}
	}
	if r.Tree != nil {
		t.printf("\n%s\n", t.p.bold("Hierarchy"))
		t.node(r.Tree, "", "")
	}
	if len(r.Documents) > 0 || r.Tree != nil {
		t.printf("\n")
	}
	s := r.Summary
	t.printf("%s: %s\n", plural(s.Documents, "document"),
		t.p.count(s.Errors, "error", validator.Error)+", "+
			t.p.count(s.Warnings, "warning", validator.Warning)+", "+
			t.p.count(s.Infos, "info", validator.Info))
	return bw.Flush()
}

type textWriter struct {
	w *bufio.Writer
	p painter
}

func (t *textWriter) printf(format string, args ...any) { fmt.Fprintf(t.w, format, args...) }

func (t *textWriter) document(r *Result, i int, rep *validator.Report) {
	src := safe(rep.Source)
	desc := string(rep.Kind)
	if rep.Entries > 0 || rep.Kind != validator.Unknown {
		desc += ", " + plural(rep.Entries, "entry")
	}
	sum := t.p.color(colorOK, "ok")
	if rep.Errors+rep.Warnings+rep.Infos > 0 {
		sum = t.p.count(rep.Errors, "error", validator.Error) + ", " +
			t.p.count(rep.Warnings, "warning", validator.Warning) + ", " +
			t.p.count(rep.Infos, "info", validator.Info)
	}
	t.printf("%s (%s): %s\n", t.p.bold(src), safe(desc), sum)
	for k := range rep.Findings {
		f := &rep.Findings[k]
		loc := src
		if f.Line > 0 {
			loc += fmt.Sprintf(":%d", f.Line)
			if f.Column > 0 {
				loc += fmt.Sprintf(":%d", f.Column)
			}
		}
		t.printf("%s: %s %s %s %s\n", loc, t.p.severity(f.Severity), f.Rule, safe(f.Message), t.p.dim("[§"+safe(f.Spec)+"]"))
		if f.Path != "" {
			t.printf("    %s %s\n", t.p.dim("at"), safe(f.Path))
		}
		if ex := r.excerpt(i, f); ex != nil {
			t.excerpt(ex)
		}
	}
	for _, id := range suppressedRules(rep) {
		t.printf("  … and %s\n", notShown(rep.Suppressed[id], id))
	}
}

// excerpt prints the source line and, under it, a caret at the column.
func (t *textWriter) excerpt(ex *Excerpt) {
	bar := t.p.dim("|")
	t.printf("    %s %s\n", bar, safe(ex.Text))
	if ex.Caret >= 0 {
		pad := utf8.RuneCountInString(safe(ex.Text[:ex.Caret]))
		t.printf("    %s %s%s\n", bar, strings.Repeat(" ", pad), t.p.color(colorError, "^"))
	}
}

func (t *textWriter) discovery(d Discovery) {
	t.printf("  %s: ", safe(d.Method))
	switch len(d.Found) {
	case 0:
		t.printf("nothing found")
	case 1:
		t.printf("%s", safe(d.Found[0]))
	default:
		t.printf("%d found", len(d.Found))
	}
	if d.Note != "" {
		t.printf(" %s %s", t.p.dim("—"), safe(d.Note))
	}
	t.printf("\n")
	if len(d.Found) > 1 {
		for _, u := range d.Found {
			t.printf("    %s\n", safe(u))
		}
	}
}

// node draws n and its subtree with box-drawing characters. first
// prefixes the node's own line, rest the lines of its children.
func (t *textWriter) node(n *Node, first, rest string) {
	line := first + safe(n.URL)
	if n.Kind != "" {
		line += "  " + t.p.dim(safe(string(n.Kind)))
	}
	// Counts say more than the status they imply.
	switch {
	case n.Errors > 0 && n.Warnings > 0:
		line += "  " + t.p.count(n.Errors, "error", validator.Error) + ", " + t.p.count(n.Warnings, "warning", validator.Warning)
	case n.Errors > 0:
		line += "  " + t.p.count(n.Errors, "error", validator.Error)
	case n.Warnings > 0:
		line += "  " + t.p.count(n.Warnings, "warning", validator.Warning)
	default:
		line += "  " + t.p.status(n.Status)
	}
	if n.Note != "" {
		line += " " + t.p.dim("—") + " " + safe(n.Note)
	}
	t.printf("%s\n", line)
	for i, c := range n.Children {
		if i == len(n.Children)-1 {
			t.node(c, rest+"└── ", rest+"    ")
		} else {
			t.node(c, rest+"├── ", rest+"│   ")
		}
	}
}

// safe makes an untrusted string harmless on a terminal: control
// characters (an ESC could recolour or retitle it) and bidirectional
// overrides (which could reorder what is shown) become visible escapes.
func safe(s string) string {
	clean := true
	for _, r := range s {
		if unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteRune(r)
		case r == '\t':
			b.WriteByte(' ')
		case unsafeRune(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// painter adds ANSI colours when true.
type painter bool

// SGR parameters.
const (
	colorError   = "31;1"
	colorWarning = "33"
	colorInfo    = "36"
	colorOK      = "32"
	colorBold    = "1"
	colorDim     = "2"
)

func (p painter) color(code, s string) string {
	if !p || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p painter) bold(s string) string { return p.color(colorBold, s) }
func (p painter) dim(s string) string  { return p.color(colorDim, s) }

func severityColor(s validator.Severity) string {
	switch s {
	case validator.Error:
		return colorError
	case validator.Warning:
		return colorWarning
	}
	return colorInfo
}

func (p painter) severity(s validator.Severity) string {
	return p.color(severityColor(s), s.String())
}

// count formats a count, coloured by severity when not zero.
func (p painter) count(n int, noun string, s validator.Severity) string {
	if n == 0 {
		return plural(n, noun)
	}
	return p.color(severityColor(s), plural(n, noun))
}

func (p painter) status(s Status) string {
	code := colorDim
	switch s {
	case StatusOK:
		code = colorOK
	case StatusError, StatusUnreachable:
		code = colorError
	case StatusWarning:
		code = colorWarning
	}
	return p.color(code, safe(string(s)))
}
