package report

import (
	_ "embed"
	"html/template"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rscheck/rscheck/validator"
)

//go:embed html.tmpl
var htmlSource string

// htmlTemplate is parsed on first use, not at start-up: most runs (and
// the WebAssembly build) never write HTML.
var htmlTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"httpURL":  httpURL,
		"plural":   plural,
		"notShown": notShown,
	}).Parse(htmlSource))
})

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
	page := htmlPage{Result: r}
	idx := ruleIndex(opts.rules())
	for i, rep := range r.Documents {
		page.Docs = append(page.Docs, htmlDocument(r, i, rep, idx, &opts))
	}
	return htmlTemplate().Execute(w, page)
}

type htmlPage struct {
	*Result
	Docs []htmlDoc
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

// htmlExcerpt is an excerpt split around its caret, so that the template
// can mark the character the finding points at.
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
