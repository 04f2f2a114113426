package main

//go:generate go run . rules --format md -o ../../docs/rules.md

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/rscheck/rscheck/explorer/monitor"
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// catalogue returns every rule rscheck can report, in ID order: the one
// list that the rules and explain commands, SARIF output and
// docs/rules.md are made from.
func catalogue() []*validator.Rule { return monitor.Catalogue() }

// lookup returns the rule with the given ID (in any case), or nil.
func lookup(id string) *validator.Rule {
	for _, r := range catalogue() {
		if strings.EqualFold(r.ID, id) {
			return r
		}
	}
	return nil
}

// docURL is the absolute URL of a rule's documentation.
func docURL(r *validator.Rule) string { return report.DefaultDocBase + r.DocURL() }

// A ruleGroup is a section of the catalogue: the rules whose IDs start
// with prefix.
type ruleGroup struct {
	prefix, anchor, title string
}

// ruleGroups are the sections of the catalogue, in the order the docs
// show them. The longest matching prefix wins.
var ruleGroups = []ruleGroup{
	{"XML", "xml", "XML well-formedness and encoding"},
	{"XSD", "xsd", "XML Schema"},
	{"SM", "sitemap", "Sitemap protocol"},
	{"RS1", "structure", "Document structure"},
	{"RS2", "values", "Attribute values"},
	{"RS3", "capabilities", "Requirements of each capability"},
	{"RS4", "time", "Times and order"},
	{"RS5", "links", "Links"},
	{"RN", "notifications", "Notifications"},
	{"RX", "cross-document", "Between documents (explore)"},
	{"RF", "fetching", "Fetching (explore)"},
	{"RD", "dumps", "Dump packages"},
	{"RA", "audit", "Content audit (explore --audit)"},
	{"RM", "monitor", "Notification monitor (monitor)"},
}

// groupOf returns the section of a rule, or a section named after the
// rule's ID prefix when none matches.
func groupOf(r *validator.Rule) ruleGroup {
	best := -1
	for i, g := range ruleGroups {
		if strings.HasPrefix(r.ID, g.prefix) && (best < 0 || len(g.prefix) > len(ruleGroups[best].prefix)) {
			best = i
		}
	}
	if best >= 0 {
		return ruleGroups[best]
	}
	prefix := strings.TrimRight(r.ID, "0123456789")
	return ruleGroup{prefix, strings.ToLower(prefix), prefix + " rules"}
}

func rulesUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: rscheck rules [--format text|json|md] [-o FILE]

Rules lists every rule rscheck checks: its ID, name, severity, the section
of the specification it enforces and what it requires. The md format is
docs/rules.md (go generate ./cmd/rscheck writes it).

Flags:

`)
	printFlags(w, rulesFlags(new(string), new(string)))
	fmt.Fprint(w, `
Examples:

	rscheck rules
	rscheck rules --format json | jq '.[] | select(.severity == "error") | .id'
`)
}

func rulesFlags(format, output *string) *flag.FlagSet {
	fs := newFlagSet("rules")
	fs.StringVar(format, "format", "text", "output `format`: text, json or md")
	fs.StringVar(output, "o", "", "write to `file` instead of standard output")
	return fs
}

func runRules(e *env, args []string) int {
	var format, output string
	fs := rulesFlags(&format, &output)
	if status, ok := parse(e, fs, args, rulesUsage); !ok {
		return status
	}
	if fs.NArg() > 0 {
		e.errorf("rules", "unexpected argument %q", fs.Arg(0))
		return exitTrouble
	}
	var write func(io.Writer, []*validator.Rule) error
	switch format {
	case "text":
		write = writeRulesText
	case "json":
		write = writeRulesJSON
	case "md":
		write = writeRulesMarkdown
	default:
		e.errorf("rules", "unknown format %q (want text, json or md)", format)
		return exitTrouble
	}
	w := e.stdout
	var f *os.File
	if output != "" && output != "-" {
		var err error
		if f, err = os.Create(output); err != nil {
			e.errorf("rules", "%v", err)
			return exitTrouble
		}
		w = f
	}
	err := write(w, catalogue())
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		e.errorf("rules", "%v", err)
		return exitTrouble
	}
	return exitOK
}

func writeRulesText(w io.Writer, rules []*validator.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\tSEVERITY\tSPEC\tNAME\tDESCRIPTION\n")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t§%s\t%s\t%s\n", r.ID, r.Severity, r.Spec.Label(), r.Name, r.Doc)
	}
	return tw.Flush()
}

// ruleJSON is a rule as the JSON catalogue lists it.
type ruleJSON struct {
	ID       string             `json:"id"`
	Name     string             `json:"name"`
	Severity validator.Severity `json:"severity"`
	Spec     string             `json:"spec"`
	SpecURL  string             `json:"specURL"`
	Doc      string             `json:"doc"`
	DocURL   string             `json:"docURL"`
	Group    string             `json:"group"`
}

func writeRulesJSON(w io.Writer, rules []*validator.Rule) error {
	list := make([]ruleJSON, 0, len(rules))
	for _, r := range rules {
		list = append(list, ruleJSON{r.ID, r.Name, r.Severity, r.Spec.Label(), r.Spec.URL(), r.Doc, docURL(r), groupOf(r).title})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(list)
}

// writeRulesMarkdown writes docs/rules.md: a table of contents by group,
// then one section per rule under an anchor derived from its ID, which is
// what Rule.DocURL links to.
func writeRulesMarkdown(w io.Writer, rules []*validator.Rule) error {
	var groups []ruleGroup
	byGroup := map[string][]*validator.Rule{}
	for _, r := range rules {
		g := groupOf(r)
		if byGroup[g.anchor] == nil {
			groups = append(groups, g)
		}
		byGroup[g.anchor] = append(byGroup[g.anchor], r)
	}
	// Known groups in their order, others after them.
	order := func(g ruleGroup) int {
		for i, k := range ruleGroups {
			if k.anchor == g.anchor {
				return i
			}
		}
		return len(ruleGroups)
	}
	slices.SortStableFunc(groups, func(a, b ruleGroup) int { return order(a) - order(b) })

	var b strings.Builder
	b.WriteString("<!-- Code generated by \"rscheck rules --format md\"; DO NOT EDIT. -->\n\n")
	b.WriteString("# rscheck rules\n\n")
	fmt.Fprintf(&b, "rscheck checks %d rules. Every finding names its rule by ID; this page, `rscheck rules` and `rscheck explain ID` are generated from the same catalogue.\n\n", len(rules))
	b.WriteString("Severities:\n\n")
	b.WriteString("- **error**: a violation of a MUST or MUST NOT of the specifications, of the XML Schema, or of XML well-formedness. `rscheck validate` exits with status 1.\n")
	b.WriteString("- **warning**: a departure from a SHOULD or a recommendation of the specifications.\n")
	b.WriteString("- **info**: nothing is wrong, but something could be better or deserves a look.\n\n")
	b.WriteString("## Contents\n\n")
	for _, g := range groups {
		fmt.Fprintf(&b, "- [%s](#%s)\n", g.title, g.anchor)
		for _, r := range byGroup[g.anchor] {
			fmt.Fprintf(&b, "  - [%s](#%s) %s\n", r.ID, strings.ToLower(r.ID), r.Name)
		}
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n\n## %s\n", g.anchor, g.title)
		for _, r := range byGroup[g.anchor] {
			fmt.Fprintf(&b, "\n<a id=\"%s\"></a>\n\n### %s %s\n\n", strings.ToLower(r.ID), r.ID, r.Name)
			fmt.Fprintf(&b, "**Severity:** %s · **Specification:** [§%s](%s)\n\n", r.Severity, r.Spec.Label(), r.Spec.URL())
			fmt.Fprintf(&b, "%s\n", markdownText(r.Doc))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var xmlMention = regexp.MustCompile("<[^<>\n]+>")

// markdownText makes a rule's doc safe for Markdown: element names such
// as <rs:md> would be taken for HTML tags and vanish, so they become code.
func markdownText(s string) string {
	s = xmlMention.ReplaceAllString(s, "`$0`")
	var b strings.Builder
	inCode := false
	for _, r := range s {
		switch {
		case r == '`':
			inCode = !inCode
		case inCode:
		case r == '<':
			b.WriteString("&lt;")
			continue
		case r == '>':
			b.WriteString("&gt;")
			continue
		case r == '*' || r == '_' || r == '[' || r == ']' || r == '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func explainUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: rscheck explain ID

Explain describes one rule: what it requires, its severity, the section
of the specification it enforces and where it is documented.

Example:

	rscheck explain RS404
`)
}

func runExplain(e *env, args []string) int {
	fs := newFlagSet("explain")
	if status, ok := parse(e, fs, args, explainUsage); !ok {
		return status
	}
	if fs.NArg() != 1 {
		e.errorf("explain", "give one rule ID, such as RS404\nRun 'rscheck help explain' for usage.")
		return exitTrouble
	}
	r := lookup(fs.Arg(0))
	if r == nil {
		e.errorf("explain", "no rule %q; 'rscheck rules' lists them", fs.Arg(0))
		return exitTrouble
	}
	fmt.Fprintf(e.stdout, "%s %s (%s)\n\n%s\n\n", r.ID, r.Name, r.Severity, r.Doc)
	fmt.Fprintf(e.stdout, "Specification: §%s %s\n", r.Spec.Label(), r.Spec.URL())
	fmt.Fprintf(e.stdout, "Documentation: %s\n", docURL(r))
	return exitOK
}
