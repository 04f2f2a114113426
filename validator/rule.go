package validator

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// A Rule is one check of the specifications: a value with a stable ID, a
// severity, the section it enforces, a one-line doc and its check.
//
// Document rules (those in Rules) have a Run function. Rules enforced by
// other parts of the product (the XSD engine, the explorer's cross-document
// checks, the notification monitor) are values of the same type with a nil
// Run: they exist so that every finding has a catalogue entry, one place
// documents them all, and SARIF output can list them.
type Rule struct {
	// ID is the stable identifier reported in findings: letters then
	// digits, such as "RS325". IDs are never reused for another meaning.
	ID string
	// Name is a short kebab-case slug, such as "changelist-order".
	Name string
	// Severity of every finding the rule reports.
	Severity Severity
	// Spec is the section of the specification the rule enforces.
	Spec Spec
	// Doc is a one-line description of what the rule requires.
	Doc string
	// Run, if set, is called once per document when the document's
	// header (root element, document-level rs:md and rs:ln) has been read.
	// It inspects pass.Doc and registers handlers for the entries and the
	// end of the document. Run must not retain the *Pass or the values the
	// handlers receive beyond the document: they are reused.
	Run func(pass *Pass)
}

// Spec identifies a section of one of the specifications.
type Spec struct {
	Doc     SpecDoc // which specification
	Section string  // section number as printed in it: "12.1", "A", "3"
	Anchor  string  // fragment identifier in the published HTML, without "#"
}

// SpecDoc names a specification.
type SpecDoc uint8

// The specifications rules refer to.
const (
	// SpecCore is the ResourceSync Framework Specification 1.1 (ANSI/NISO Z39.99-2017).
	SpecCore SpecDoc = iota + 1
	// SpecChangeNotification is ResourceSync Change Notification 1.0.1.
	SpecChangeNotification
	// SpecFrameworkNotification is ResourceSync Framework Notification 1.0.1.
	SpecFrameworkNotification
	// SpecSitemaps is the Sitemaps XML format (sitemaps.org protocol).
	SpecSitemaps
	// SpecXML is Extensible Markup Language 1.0 (Fifth Edition) and Namespaces in XML 1.0.
	SpecXML
	// SpecWebSub is the W3C WebSub Recommendation.
	SpecWebSub
)

var specDocs = map[SpecDoc]struct{ prefix, url string }{
	SpecCore:                  {"", "http://www.openarchives.org/rs/1.1/resourcesync"},
	SpecChangeNotification:    {"CN ", "http://www.openarchives.org/rs/notification/1.0.1/notification"},
	SpecFrameworkNotification: {"FN ", "http://www.openarchives.org/rs/notification/1.0.1/framework_notification"},
	SpecSitemaps:              {"Sitemaps ", "https://www.sitemaps.org/protocol.html"},
	SpecXML:                   {"XML ", "https://www.w3.org/TR/xml/"},
	SpecWebSub:                {"WebSub ", "https://www.w3.org/TR/websub/"},
}

// Label is the short form used in findings: "12.1" for the core
// specification, "CN 3" for Change Notification, "Sitemaps" for the
// Sitemaps protocol.
func (s Spec) Label() string {
	d := specDocs[s.Doc]
	return strings.TrimSpace(d.prefix + s.Section)
}

// URL links to the section in the published specification.
func (s Spec) URL() string {
	u := specDocs[s.Doc].url
	if s.Anchor != "" {
		u += "#" + s.Anchor
	}
	return u
}

// String returns the label.
func (s Spec) String() string { return s.Label() }

// Finding makes a finding of the rule at a position (line 0 for the
// document as a whole), for code that reports outside a Pass: the driver,
// the explorer, the dump checker.
func (r *Rule) Finding(line, col int, path, format string, args ...any) Finding {
	return Finding{
		Rule: r.ID, Severity: r.Severity, Message: fmt.Sprintf(format, args...),
		Line: line, Column: col, Path: path,
		Spec: r.Spec.Label(), SpecURL: r.Spec.URL(),
	}
}

// DocURL is where the rule is documented in the generated catalogue
// (docs/rules.md), derived from its ID.
func (r *Rule) DocURL() string { return "docs/rules.md#" + strings.ToLower(r.ID) }

// CheckRegistry reports the problems of a set of rules: malformed or
// duplicate IDs and names, missing docs or severities, unknown
// specifications. The product's catalogue is checked by a test.
func CheckRegistry(rules []*Rule) error {
	// Compiled here, not at package initialisation: the browser's module
	// would pay for them on every page load.
	ruleIDPattern := regexp.MustCompile(`^[A-Z]{2,3}[0-9]{3}$`)
	ruleNamePattern := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	var errs []string
	ids := map[string]bool{}
	names := map[string]bool{}
	for _, r := range rules {
		if !ruleIDPattern.MatchString(r.ID) {
			errs = append(errs, fmt.Sprintf("rule %q: ID must be 2-3 capitals and 3 digits", r.ID))
		}
		if ids[r.ID] {
			errs = append(errs, fmt.Sprintf("rule %q: duplicate ID", r.ID))
		}
		ids[r.ID] = true
		if !ruleNamePattern.MatchString(r.Name) {
			errs = append(errs, fmt.Sprintf("rule %s: name %q must be kebab-case", r.ID, r.Name))
		}
		if names[r.Name] {
			errs = append(errs, fmt.Sprintf("rule %s: duplicate name %q", r.ID, r.Name))
		}
		names[r.Name] = true
		if r.Severity < Info || r.Severity > Error {
			errs = append(errs, fmt.Sprintf("rule %s: no severity", r.ID))
		}
		if _, ok := specDocs[r.Spec.Doc]; !ok || r.Spec.Section == "" {
			errs = append(errs, fmt.Sprintf("rule %s: no specification section", r.ID))
		}
		if r.Doc == "" || strings.Contains(r.Doc, "\n") {
			errs = append(errs, fmt.Sprintf("rule %s: doc must be one non-empty line", r.ID))
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("invalid rule registry:\n\t%s", strings.Join(errs, "\n\t"))
	}
	return nil
}

// core returns a Spec for a section of the core specification.
func core(section, anchor string) Spec { return Spec{SpecCore, section, anchor} }

// Sections of the specifications the rules cite.
var (
	specStructure    = core("6.1", "Structure")
	specNavigation   = core("6.2", "Navigation")
	specFormats      = core("7", "DocumentFormats")
	specSourceDesc   = core("8", "SourceDesc")
	specCapList      = core("9", "CapabilityList")
	specResList      = core("10.1", "ResourceList")
	specResListIndex = core("10.2", "ResourceListIndex")
	specResDump      = core("11.1", "ResourceDump")
	specResDumpIndex = core("11.1", "ResourceDumpIndex")
	specResDumpMan   = core("11.2", "ResourceDumpManifest")
	specChangeList   = core("12.1", "ChangeList")
	specChangeIndex  = core("12.2", "ChangeListIndex")
	specChangeDump   = core("13.1", "ChangeDump")
	specChDumpIndex  = core("13.1", "ChangeDumpIndex")
	specChDumpMan    = core("13.2", "ChangeDumpManifest")
	specMirror       = core("14.2", "MirCon")
	specAlternate    = core("14.3", "AltRep")
	specPatch        = core("14.4", "PatchCon")
	specVersions     = core("14.6", "ResVers")
	specRepublish    = core("14.8", "RePub")
	specTimeAttrs    = core("A", "TimeAttributeReqs")
	specCN           = Spec{SpecChangeNotification, "3", "ChangeNoti"}
	specCNAdvertise  = Spec{SpecChangeNotification, "5", "AdvNotChan"}
	specFN           = Spec{SpecFrameworkNotification, "3", "FrameworkNoti"}
	specFNTypes      = Spec{SpecFrameworkNotification, "2.1", "NotChangeTypes"}
	specSitemaps     = Spec{SpecSitemaps, "protocol", "xmlTagDefinitions"}
	specSitemapsEnc  = Spec{SpecSitemaps, "encoding", "escaping"}
	specXML          = Spec{SpecXML, "2", "sec-documents"}
)
