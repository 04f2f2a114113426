package validator

import "fmt"

// Severity says how much a finding matters.
type Severity int8

// Severities, from least to most serious. The zero Severity is invalid.
const (
	// Info is a hint: nothing is wrong, but something could be better or
	// deserves a look.
	Info Severity = iota + 1
	// Warning is a departure from a SHOULD or a recommendation of the
	// specifications.
	Warning
	// Error is a violation of a MUST or MUST NOT of the specifications, of
	// the XML Schema, or of XML well-formedness.
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int8(s))
}

// MarshalText encodes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "info":
		*s = Info
	case "warning":
		*s = Warning
	case "error":
		*s = Error
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Finding is one problem found in a document.
type Finding struct {
	// Rule is the stable ID of the rule that produced the finding.
	Rule string `json:"rule"`
	// Severity is the rule's severity.
	Severity Severity `json:"severity"`
	// Message says, for a person, what is wrong and what is expected.
	Message string `json:"message"`
	// Line and Column locate the finding (1-based; Column counts bytes).
	// Both are 0 when the finding is about the document as a whole.
	Line   int `json:"line"`
	Column int `json:"column"`
	// Path locates the finding in the XML tree, for example
	// "/urlset/url[17]/rs:md/@hash". It is empty for document-level
	// findings that have no element.
	Path string `json:"path,omitempty"`
	// Spec is the section of the specification that the rule enforces,
	// for example "12.1", "A" (an appendix) or "CN 3" (Change Notification).
	Spec string `json:"spec"`
	// SpecURL links to that section.
	SpecURL string `json:"specURL,omitempty"`
}

// String formats the finding as "line:col: severity: message [RULE §spec]".
func (f Finding) String() string {
	return fmt.Sprintf("%d:%d: %s: %s [%s §%s]", f.Line, f.Column, f.Severity, f.Message, f.Rule, f.Spec)
}
