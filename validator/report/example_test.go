package report_test

import (
	"os"
	"strings"

	"github.com/rscheck/rscheck/validator"
	"github.com/rscheck/rscheck/validator/report"
)

func ExampleWriteText() {
	src := `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://example.com/a b</loc></url>
</urlset>
`
	// A report as validator.Validate returns it.
	rep := &validator.Report{Source: "sitemap.xml", Kind: validator.Sitemap, Entries: 1, Errors: 1,
		Findings: []validator.Finding{{Rule: "SM103", Severity: validator.Error, Line: 3, Column: 13,
			Path: "/urlset/url[1]/loc", Spec: "Sitemaps protocol",
			Message: `<loc> "http://example.com/a b" contains a space; it must be percent-encoded (%20)`}}}
	res := report.NewResult([]*validator.Report{rep})
	res.AddExcerpts(0, strings.NewReader(src))
	report.WriteText(os.Stdout, res, report.Options{})
	// Output:
	// sitemap.xml (sitemap, 1 entry): 1 error, 0 warnings, 0 infos
	// sitemap.xml:3:13: error SM103 <loc> "http://example.com/a b" contains a space; it must be percent-encoded (%20) [§Sitemaps protocol]
	//     at /urlset/url[1]/loc
	//     | <url><loc>http://example.com/a b</loc></url>
	//     |           ^
	//
	// 1 document: 1 error, 0 warnings, 0 infos
}
