package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/rscheck/rscheck/validator"
)

// SARIF 2.1.0 identifiers.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
)

// sarifLevel maps a severity to a SARIF level. It is the only place that
// does: rules' default levels and results' levels both come from it.
func sarifLevel(s validator.Severity) string {
	switch s {
	case validator.Error:
		return "error"
	case validator.Warning:
		return "warning"
	}
	return "note"
}

// The subset of SARIF 2.1.0 rscheck writes, in the order the specification
// lists the properties.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool        sarifTool         `json:"tool"`
		Invocations []sarifInvocation `json:"invocations,omitempty"`
		Results     []sarifResult     `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string            `json:"id"`
		Name                 string            `json:"name,omitempty"`
		ShortDescription     *sarifMessage     `json:"shortDescription,omitempty"`
		HelpURI              string            `json:"helpUri,omitempty"`
		DefaultConfiguration *sarifRuleConfig  `json:"defaultConfiguration,omitempty"`
		Properties           map[string]string `json:"properties,omitempty"`
	}
	sarifRuleConfig struct {
		Level string `json:"level"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifInvocation struct {
		ExecutionSuccessful        bool                `json:"executionSuccessful"`
		ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifMessage    `json:"message"`
		Locations []sarifLocation `json:"locations"`
	}
	sarifLocation struct {
		PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
		LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	sarifLogical struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind,omitempty"`
	}
)

// WriteSARIF writes r as a SARIF 2.1.0 log with one run: the catalogue of
// opts.Rules as tool.driver.rules (with any rule a finding names that the
// catalogue lacks) and one result per finding. Findings beyond the
// per-rule cap are reported as tool execution notifications.
func WriteSARIF(w io.Writer, r *Result, opts Options) error {
	drv := sarifDriver{Name: Tool, Version: r.Version, InformationURI: InformationURI, Rules: []sarifRule{}}
	index := map[string]int{}
	for _, rule := range opts.rules() {
		index[rule.ID] = len(drv.Rules)
		drv.Rules = append(drv.Rules, sarifRule{
			ID:                   rule.ID,
			Name:                 rule.Name,
			ShortDescription:     &sarifMessage{rule.Doc},
			HelpURI:              rule.Spec.URL(),
			DefaultConfiguration: &sarifRuleConfig{sarifLevel(rule.Severity)},
			Properties:           map[string]string{"spec": rule.Spec.Label(), "documentation": opts.docURL(rule)},
		})
	}
	ruleFor := func(f *validator.Finding) int {
		i, ok := index[f.Rule]
		if !ok {
			// A finding of a rule outside the catalogue still needs a
			// descriptor for ruleIndex to point at.
			i = len(drv.Rules)
			index[f.Rule] = i
			drv.Rules = append(drv.Rules, sarifRule{ID: f.Rule, HelpURI: f.SpecURL,
				DefaultConfiguration: &sarifRuleConfig{sarifLevel(f.Severity)}})
		}
		return i
	}

	run := sarifRun{Results: []sarifResult{}}
	inv := sarifInvocation{ExecutionSuccessful: true}
	for _, rep := range r.Documents {
		uri := artifactURI(rep.Source)
		for k := range rep.Findings {
			f := &rep.Findings[k]
			loc := sarifLocation{PhysicalLocation: &sarifPhysical{ArtifactLocation: sarifArtifact{uri}}}
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line, StartColumn: f.Column}
			}
			if f.Path != "" {
				loc.LogicalLocations = []sarifLogical{{FullyQualifiedName: f.Path, Kind: "element"}}
			}
			run.Results = append(run.Results, sarifResult{
				RuleID:    f.Rule,
				RuleIndex: ruleFor(f),
				Level:     sarifLevel(f.Severity),
				Message:   sarifMessage{f.Message},
				Locations: []sarifLocation{loc},
			})
		}
		for _, id := range suppressedRules(rep) {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{
				Level:   "note",
				Message: sarifMessage{rep.Source + ": " + notShown(rep.Suppressed[id], id)},
			})
		}
	}
	run.Tool = sarifTool{drv}
	run.Invocations = []sarifInvocation{inv}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// artifactURI turns a document source into a URI: URLs as they are, file
// paths as relative (or, when absolute, file:) URI references, so that
// code-scanning services can map results to repository files.
func artifactURI(source string) string {
	if u, err := url.Parse(source); err == nil && u.Scheme != "" && len(u.Scheme) > 1 {
		return source
	}
	p := filepath.ToSlash(source)
	if filepath.IsAbs(source) || strings.HasPrefix(p, "/") {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive: file:///C:/…
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}
