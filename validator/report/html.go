package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"html"
	"io"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rscheck/rscheck/validator"
)

// The page is written by hand rather than with html/template, which would
// add about half a megabyte (gzipped) to the WebAssembly module. Safety
// rests on one rule, kept by htmlWriter: every value goes through text()
// (escaped for element content and double-quoted attributes alike), and
// only http and https URLs become links (link, href). Tests feed the view
// hostile values.

//go:embed html.css
var htmlCSS string

// WriteHTML writes r as one self-contained HTML page that works offline:
// inline CSS, no script, no external resource. It shows the summary, then
// per document the findings grouped by rule with the rule's documentation
// and links to its specification section, and for explore results the
// discovery summary and the hierarchy. Severities can be filtered and
// groups collapsed without JavaScript. Light and dark colour schemes
// follow the reader's preference.
//
// Every value from a document is escaped, and only http and https URLs
// become links.
func WriteHTML(w io.Writer, r *Result, opts Options) error {
	idx := ruleIndex(opts.rules())
	h := &htmlWriter{w: bufio.NewWriter(w)}
	s := r.Summary
	h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" +
		"<meta name=\"color-scheme\" content=\"light dark\">\n<title>rscheck report: ")
	h.text(plural(s.Documents, "document") + ", " + plural(s.Errors, "error"))
	h.raw("</title>\n<style>\n" + htmlCSS + "</style>\n</head>\n<body>\n<header>\n<h1>ResourceSync conformance report</h1>\n<p class=\"meta\">")
	h.text(r.Tool)
	if r.Version != "" {
		h.text(" " + r.Version)
	}
	h.text(" · " + plural(s.Documents, "document"))
	h.raw("</p>\n<ul class=\"counts\">\n")
	for _, c := range []struct {
		sev   validator.Severity
		n     int
		label string
	}{{validator.Error, s.Errors, "error"}, {validator.Warning, s.Warnings, "warning"}, {validator.Info, s.Infos, "info"}} {
		h.raw(`<li class="sev-` + c.sev.String() + `"><b>`)
		h.text(fmt.Sprint(c.n))
		h.raw("</b> ")
		h.text(strings.TrimPrefix(plural(c.n, c.label), fmt.Sprint(c.n)+" "))
		h.raw("</li>\n")
	}
	h.raw("</ul>\n")
	if s.Errors > 0 {
		h.raw("<p class=\"verdict bad\">Not conformant: the documents violate requirements of the specifications.</p>\n")
	} else {
		h.raw("<p class=\"verdict good\">No errors: the documents meet the requirements rscheck checks.</p>\n")
	}
	h.raw(`<form class="filters" aria-label="Filters">
<label><input type="checkbox" id="hide-errors"> hide errors</label>
<label><input type="checkbox" id="hide-warnings"> hide warnings</label>
<label><input type="checkbox" id="hide-infos"> hide infos</label>
<label><input type="checkbox" id="hide-clean"> hide documents without findings</label>
</form>
</header>
<main>`)
	if len(r.Discovery) > 0 {
		h.raw("\n<section id=\"discovery\">\n<h2>Discovery</h2>\n<table>\n<thead><tr><th>Method</th><th>Found</th><th>Note</th></tr></thead>\n<tbody>")
		for _, d := range r.Discovery {
			h.raw("\n<tr><td><code>")
			h.text(d.Method)
			h.raw("</code></td><td>")
			for _, u := range d.Found {
				h.raw("<div>")
				h.link(u)
				h.raw("</div>")
			}
			if len(d.Found) == 0 {
				h.raw(`<span class="muted">nothing</span>`)
			}
			h.raw("</td><td>")
			h.text(d.Note)
			h.raw("</td></tr>")
		}
		h.raw("\n</tbody>\n</table>\n</section>")
	}
	if r.Tree != nil {
		h.raw("\n<section id=\"hierarchy\">\n<h2>Hierarchy</h2>\n<ul class=\"tree\">")
		h.node(r.Tree)
		h.raw("</ul>\n</section>")
	}
	for i, rep := range r.Documents {
		h.document(htmlDocument(r, i, rep, idx, &opts))
	}
	h.raw("\n</main>\n</body>\n</html>\n")
	return h.flush()
}

// htmlWriter writes markup; it remembers the first write error.
type htmlWriter struct {
	w   *bufio.Writer
	err error
}

// raw writes constant markup, never a value.
func (h *htmlWriter) raw(s string) {
	if h.err == nil {
		_, h.err = h.w.WriteString(s)
	}
}

// text writes a value, escaped: safe as element content and inside a
// double-quoted attribute value.
func (h *htmlWriter) text(s string) { h.raw(html.EscapeString(s)) }

// class writes a value used in a class name: only lowercase letters,
// digits and hyphens pass, anything else becomes "x".
func (h *htmlWriter) class(s string) {
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			h.raw("x")
			return
		}
	}
	h.raw(s)
}

// href writes a link around text when u is an http(s) URL, else the text.
func (h *htmlWriter) href(u, text string) {
	if !httpURL(u) {
		h.text(text)
		return
	}
	h.raw(`<a href="`)
	h.text(u)
	h.raw(`">`)
	h.text(text)
	h.raw("</a>")
}

// link shows a URL, clickable when it is an http(s) one.
func (h *htmlWriter) link(u string) { h.href(u, u) }

func (h *htmlWriter) flush() error {
	if h.err != nil {
		return h.err
	}
	return h.w.Flush()
}

// node writes a node of the hierarchy and its children.
func (h *htmlWriter) node(n *Node) {
	h.raw(`<li><span class="st st-`)
	h.class(string(n.Status))
	h.raw(`">`)
	h.text(string(n.Status))
	h.raw("</span> ")
	h.link(n.URL)
	if n.Kind != "" {
		h.raw(` <span class="muted">`)
		h.text(string(n.Kind))
		h.raw("</span>")
	}
	if n.Errors > 0 {
		h.raw(` <span class="sev-error">`)
		h.text(plural(n.Errors, "error"))
		h.raw("</span>")
	}
	if n.Warnings > 0 {
		h.raw(` <span class="sev-warning">`)
		h.text(plural(n.Warnings, "warning"))
		h.raw("</span>")
	}
	if n.Note != "" {
		h.text(" — " + n.Note)
	}
	if n.Document > 0 {
		h.raw(fmt.Sprintf(` <a href="#doc-%d">findings</a>`, n.Document))
	}
	if len(n.Children) > 0 {
		h.raw("<ul>")
		for _, c := range n.Children {
			h.node(c)
		}
		h.raw("</ul>")
	}
	h.raw("</li>")
}

// document writes one document's section: its findings grouped by rule.
func (h *htmlWriter) document(d htmlDoc) {
	rep := d.Rep
	h.raw(fmt.Sprintf("\n<section id=\"doc-%d\" class=\"doc", d.N))
	if len(d.Groups) == 0 {
		h.raw(" clean")
	}
	h.raw("\">\n<h2>")
	h.link(rep.Source)
	h.raw("</h2>\n<p class=\"meta\">")
	h.text(string(rep.Kind))
	if rep.Capability != "" {
		h.text(" (capability " + rep.Capability + ")")
	}
	h.text(fmt.Sprintf(" · %s · %d bytes · ResourceSync %s · ", plural(rep.Entries, "entry"), rep.Bytes, rep.RSVersion))
	for i, c := range []struct {
		n   int
		sev validator.Severity
	}{{rep.Errors, validator.Error}, {rep.Warnings, validator.Warning}, {rep.Infos, validator.Info}} {
		if i > 0 {
			h.raw(",\n")
		}
		h.raw("<span")
		if c.n > 0 {
			h.raw(` class="sev-` + c.sev.String() + `"`)
		}
		h.raw(">")
		h.text(plural(c.n, c.sev.String()))
		h.raw("</span>")
	}
	h.raw("</p>")
	for _, g := range d.Groups {
		h.group(g)
	}
	if len(d.Groups) == 0 {
		h.raw("\n<p class=\"verdict good\">No findings.</p>")
	}
	h.raw("\n</section>")
}

// group writes the findings of one rule in a document.
func (h *htmlWriter) group(g *htmlGroup) {
	h.raw("\n<details class=\"group f-")
	h.class(g.Severity)
	h.raw("\" open>\n<summary><span class=\"sev sev-")
	h.class(g.Severity)
	h.raw("\">")
	h.text(g.Severity)
	h.raw("</span> <code>")
	h.text(g.ID)
	h.raw("</code>")
	if g.Name != "" {
		h.text(" " + g.Name)
	}
	h.raw(` <span class="muted">(`)
	h.text(fmt.Sprint(g.Count()))
	h.raw(")</span></summary>\n")
	if g.Doc != "" {
		h.raw(`<p class="rule-doc">`)
		h.text(g.Doc)
		h.raw("</p>")
	}
	h.raw("\n<p class=\"meta\">Specification ")
	h.href(g.SpecURL, "§"+g.SpecLabel)
	if httpURL(g.DocURL) {
		h.raw(" · ")
		h.href(g.DocURL, "rule documentation")
	}
	h.raw("</p>\n<ol class=\"findings\">")
	for _, f := range g.Findings {
		h.raw("\n<li>")
		if f.Line > 0 {
			h.raw(`<span class="pos">`)
			h.text(fmt.Sprintf("%d:%d", f.Line, f.Column))
			h.raw("</span> ")
		}
		if f.Path != "" {
			h.raw("<code>")
			h.text(f.Path)
			h.raw("</code>")
		}
		h.raw("<br>")
		h.text(f.Message)
		if ex := f.Excerpt; ex != nil {
			h.raw("\n<pre class=\"excerpt\"><code>")
			h.text(ex.Before)
			if ex.At != "" {
				h.raw("<mark>")
				h.text(ex.At)
				h.raw("</mark>")
			}
			h.text(ex.After)
			h.raw("</code></pre>")
		}
		h.raw("</li>")
	}
	h.raw("\n</ol>")
	if g.Suppressed > 0 {
		h.raw("\n<p class=\"muted\">… and ")
		h.text(notShown(g.Suppressed, g.ID))
		h.raw(".</p>")
	}
	h.raw("\n</details>")
}

// htmlDoc is one document's section: its findings grouped by rule.
type htmlDoc struct {
	N      int // 1-based, for anchors: #doc-N
	Rep    *validator.Report
	Groups []*htmlGroup
}

type htmlGroup struct {
	ID, Name, Doc, DocURL string
	Sev                   validator.Severity
	Severity              string // "error", "warning", "info": CSS classes
	SpecLabel, SpecURL    string
	Findings              []htmlFinding
	Suppressed            int
}

// Count is the number of findings of the group, shown or not.
func (g *htmlGroup) Count() int { return len(g.Findings) + g.Suppressed }

type htmlFinding struct {
	*validator.Finding
	Excerpt *htmlExcerpt
}

// htmlExcerpt is an excerpt split around its caret, so that the page can
// mark the character the finding points at.
type htmlExcerpt struct {
	Before, At, After string
}

func htmlDocument(r *Result, i int, rep *validator.Report, idx map[string]*validator.Rule, opts *Options) htmlDoc {
	d := htmlDoc{N: i + 1, Rep: rep}
	groups := map[string]*htmlGroup{}
	group := func(id string, sev validator.Severity, spec, specURL string) *htmlGroup {
		g := groups[id]
		if g == nil {
			g = &htmlGroup{ID: id, Sev: sev, Severity: sev.String(), SpecLabel: spec, SpecURL: specURL}
			if rule := idx[id]; rule != nil {
				g.Name, g.Doc, g.DocURL = rule.Name, rule.Doc, opts.docURL(rule)
				g.SpecLabel, g.SpecURL = rule.Spec.Label(), rule.Spec.URL()
			}
			groups[id] = g
			d.Groups = append(d.Groups, g)
		}
		return g
	}
	for k := range rep.Findings {
		f := &rep.Findings[k]
		g := group(f.Rule, f.Severity, f.Spec, f.SpecURL)
		hf := htmlFinding{Finding: f}
		if ex := r.excerpt(i, f); ex != nil {
			hf.Excerpt = splitExcerpt(ex)
		}
		g.Findings = append(g.Findings, hf)
	}
	for _, id := range suppressedRules(rep) {
		sev := validator.Error
		if rule := idx[id]; rule != nil {
			sev = rule.Severity
		}
		group(id, sev, "", "").Suppressed = rep.Suppressed[id]
	}
	// Most serious first, then by rule ID.
	slices.SortStableFunc(d.Groups, func(a, b *htmlGroup) int {
		if a.Sev != b.Sev {
			return int(b.Sev) - int(a.Sev)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return d
}

func splitExcerpt(ex *Excerpt) *htmlExcerpt {
	if ex.Caret < 0 {
		return &htmlExcerpt{After: ex.Text}
	}
	h := &htmlExcerpt{Before: ex.Text[:ex.Caret]}
	rest := ex.Text[ex.Caret:]
	_, n := utf8.DecodeRuneInString(rest)
	h.At, h.After = rest[:n], rest[n:]
	if h.At == "" {
		h.At = " " // the column is past the end of the line: mark where
	}
	return h
}

// httpURL reports whether s is an absolute http or https URL, the only
// kind of untrusted URL the page makes clickable.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
