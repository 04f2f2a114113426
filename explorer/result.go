package explorer

import (
	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

// A Result is what an exploration found.
type Result struct {
	// Start is the URL the exploration started from.
	Start string
	// Documents are the documents, packages and pages fetched, in crawl
	// order: the discovery pages first, then each hierarchy from its root
	// down, parents before children.
	Documents []*Document
	// Roots are the roots of the hierarchies: the Source Description, then
	// any document discovery found outside its hierarchy.
	Roots []*Document
	// Discovery says what each discovery method found.
	Discovery []Discovery
	// Channels are the notification channels the Capability Lists advertise.
	Channels []*Channel
	// Audit summarises the content audit, nil when there was none.
	Audit *AuditStats
	// Stopped says which limit stopped the exploration before its end,
	// "" when it went through.
	Stopped string
	// Stats count what was done.
	Stats Stats
}

// Stats count what an exploration did.
type Stats struct {
	Documents int   // documents and packages fetched, successfully or not
	Failed    int   // of which could not be read
	Bytes     int64 // bytes read
	Resources int64 // resource entries seen in lists
	Errors    int   // findings by severity, all documents together
	Warnings  int
	Infos     int
}

// finish runs the cross-document checks and builds the result.
func (c *crawler) finish(start string) *Result {
	c.progress(func(p *Progress) { p.Phase = "done" })
	c.mu.Lock()
	roots := append([]*Document(nil), c.roots...)
	all := append([]*Document(nil), c.byID...)
	c.mu.Unlock()
	var order []*Document
	seen := map[*Document]bool{}
	var walk func(d *Document)
	walk = func(d *Document) {
		if seen[d] {
			return
		}
		seen[d] = true
		order = append(order, d)
		for _, ch := range d.Children {
			walk(ch)
		}
	}
	var head []*Document
	for _, d := range all {
		if d.Parent == nil && !d.root && !(d.probe && d.fail != failNone) {
			head = append(head, d)
			seen[d] = true
		}
	}
	for _, r := range roots {
		walk(r)
	}
	order = append(head, order...)
	c.crossCheck(order)

	res := &Result{Start: start, Roots: roots, Discovery: c.discovery, Channels: c.channels, Audit: c.auditStat, Stopped: c.stopped}
	maxPer := c.vo.MaxFindingsPerRule
	for _, d := range order {
		if d.Report == nil && (len(d.extra) > 0 || len(d.suppressed) > 0) {
			d.Report = emptyReport(d.URL, d.Kind)
		}
		if d.Report != nil {
			d.Report.Add(maxPer, d.extra...)
			for id, n := range d.suppressed {
				if d.Report.Suppressed == nil {
					d.Report.Suppressed = map[string]int{}
				}
				d.Report.Suppressed[id] += n
				switch ruleSeverity(id) {
				case validator.Error:
					d.Report.Errors += n
				case validator.Warning:
					d.Report.Warnings += n
				default:
					d.Report.Infos += n
				}
			}
			d.extra, d.suppressed = nil, nil
			res.Stats.Errors += d.Report.Errors
			res.Stats.Warnings += d.Report.Warnings
			res.Stats.Infos += d.Report.Infos
		}
		res.Stats.Documents++
		if d.fail != failNone {
			res.Stats.Failed++
		}
	}
	res.Documents = order
	res.Stats.Bytes = c.bytes.Load()
	res.Stats.Resources = c.resources.Load()
	return res
}

func ruleSeverity(id string) validator.Severity {
	for _, r := range registry {
		if r.ID == id {
			return r.Severity
		}
	}
	return validator.Info
}

// Findings returns every finding of the exploration with the URL of the
// document it is in, in the order of Documents.
func (r *Result) Findings() []DocFinding {
	var out []DocFinding
	for _, d := range r.Documents {
		if d.Report == nil {
			continue
		}
		for _, f := range d.Report.Findings {
			out = append(out, DocFinding{URL: d.URL, Finding: f})
		}
	}
	return out
}

// A DocFinding is a finding and the URL of the document it is in.
type DocFinding struct {
	URL string
	validator.Finding
}

// String formats the finding as "URL:line:col: severity: message [RULE §spec]".
func (f DocFinding) String() string { return f.URL + ":" + f.Finding.String() }

// Report converts the result for the report package's views: one report
// per document or package read, in crawl order, the hierarchy as a tree
// and the discovery summary. When the exploration has several roots, the
// tree's root is the start URL and the hierarchies are its children.
func (r *Result) Report() *report.Result {
	var docs []*validator.Report
	index := map[*Document]int{}
	for _, d := range r.Documents {
		if d.Report != nil {
			docs = append(docs, d.Report)
			index[d] = len(docs)
		}
	}
	out := report.NewResult(docs)
	var node func(d *Document) *report.Node
	node = func(d *Document) *report.Node {
		n := &report.Node{URL: d.URL, Document: index[d]}
		if d.Report != nil {
			n.Kind = d.Kind
			n.Errors, n.Warnings = d.Report.Errors, d.Report.Warnings
		}
		switch {
		case d.fail == failStopped:
			n.Status, n.Note = report.StatusSkipped, "not read: the exploration stopped first"
		case d.fail != failNone:
			n.Status, n.Note = report.StatusUnreachable, d.Error
		case n.Errors > 0:
			n.Status = report.StatusError
		case n.Warnings > 0:
			n.Status = report.StatusWarning
		default:
			n.Status = report.StatusOK
		}
		for _, ch := range d.Children {
			n.Children = append(n.Children, node(ch))
		}
		return n
	}
	switch len(r.Roots) {
	case 0:
	case 1:
		out.Tree = node(r.Roots[0])
	default:
		out.Tree = &report.Node{URL: r.Start, Status: report.StatusOK, Note: "several hierarchies were found"}
		for _, d := range r.Roots {
			out.Tree.Children = append(out.Tree.Children, node(d))
		}
	}
	for _, d := range r.Discovery {
		note := d.Note
		if d.Description != "" {
			if note != "" {
				note += "; "
			}
			note += "Source Description " + d.Description
		}
		out.Discovery = append(out.Discovery, report.Discovery{Method: d.Method, Found: d.Found, Note: note})
	}
	return out
}
