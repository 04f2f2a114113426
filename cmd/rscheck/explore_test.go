package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rscheck/rscheck/explorer/explorertest"
)

// exploreJSON runs rscheck explore with JSON output.
func exploreJSON(t *testing.T, args ...string) (int, jsonResult, string) {
	t.Helper()
	status, out, errs := rscheck(t, "", append([]string{"explore", "--format", "json"}, args...)...)
	var res jsonResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("explore %v: %v\nstdout: %s\nstderr: %s", args, err, out, errs)
	}
	return status, res, errs
}

// TestExplore explores the explorer's fixture Sources: the complete one
// has no error finding, its defective twin has, and the text report shows
// the hierarchy and the discovery summary.
func TestExplore(t *testing.T) {
	good := explorertest.NewSource(t, nil)
	status, res, errs := exploreJSON(t, good.Root)
	if status != exitOK || errs != "" {
		t.Fatalf("complete Source: status %d, stderr %q", status, errs)
	}
	if len(res.Documents) < 10 {
		t.Errorf("only %d documents: %v", len(res.Documents), sources(res))
	}
	for i, d := range res.Documents {
		if !strings.HasPrefix(d.Source, good.Base) {
			t.Errorf("document %d: source %q is not a URL of the Source", i, d.Source)
		}
	}

	bad := explorertest.NewSource(t, &explorertest.Options{Defective: true})
	status, res, _ = exploreJSON(t, bad.WellKnown)
	if status != exitFindings {
		t.Fatalf("defective Source: status %d", status)
	}
	found := map[string]bool{}
	for _, d := range res.Documents {
		for _, f := range d.Findings {
			found[f.Rule] = true
		}
	}
	for _, w := range bad.Wants {
		if !found[w.Rule] {
			t.Errorf("planted defect %s not reported", w.Rule)
		}
	}

	status, out, _ := rscheck(t, "", "explore", "--no-color", "--quiet", good.Root)
	if status != exitOK || !strings.Contains(out, "description") || !strings.Contains(out, "├──") || !strings.Contains(out, "well-known") {
		t.Errorf("text report: status %d\n%s", status, out)
	}
}

// TestExploreUsage: usage problems exit 2 with a message.
func TestExploreUsage(t *testing.T) {
	for _, args := range [][]string{
		{"explore"},
		{"explore", "file.xml"},
		{"explore", "ftp://example.org/"},
		{"explore", "--audit", "some", "http://127.0.0.1:1/"},
		{"explore", "--concurrency", "0", "http://127.0.0.1:1/"},
		{"explore", "http://127.0.0.1:1/", "http://127.0.0.1:2/"},
	} {
		if status, _, errs := rscheck(t, "", args...); status != exitTrouble || errs == "" {
			t.Errorf("%v: status %d, stderr %q", args, status, errs)
		}
	}
}

// TestExploreLimits: a limit ends the exploration with a report of what
// was done and a note on stderr.
func TestExploreLimits(t *testing.T) {
	src := explorertest.NewSource(t, nil)
	status, res, errs := exploreJSON(t, "--max-documents", "3", src.Root)
	if status == exitTrouble || !strings.Contains(errs, "stopped early") || len(res.Documents) == 0 {
		t.Errorf("status %d, %d documents, stderr %q", status, len(res.Documents), errs)
	}
	slow := explorertest.NewSource(t, &explorertest.Options{Slow: time.Minute})
	start := time.Now()
	status, _, errs = exploreJSON(t, "--max-duration", "300ms", slow.Root)
	if time.Since(start) > 20*time.Second || !strings.Contains(errs, "stopped early") {
		t.Errorf("slow Source: status %d after %v, stderr %q", status, time.Since(start), errs)
	}
}

// TestExploreAudit: --audit all fetches resources and finds none wrong on
// the complete Source; on the audit twin it reports RA findings.
func TestExploreAudit(t *testing.T) {
	good := explorertest.NewSource(t, nil)
	if status, _, errs := exploreJSON(t, "--audit", "all", good.Root); status != exitOK {
		t.Errorf("status %d, stderr %q", status, errs)
	}
	bad := explorertest.NewSource(t, &explorertest.Options{AuditDefects: true})
	_, res, _ := exploreJSON(t, "--audit", "all", bad.Root)
	n := 0
	for _, d := range res.Documents {
		for _, f := range d.Findings {
			if strings.HasPrefix(f.Rule, "RA") {
				n++
			}
		}
	}
	if n == 0 {
		t.Error("no content audit finding on the defective resources")
	}
}

// TestValidateZip: validate checks a dump package given as a file or on
// standard input.
func TestValidateZip(t *testing.T) {
	body := []byte("hello")
	manifest := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
  <rs:ln rel="up" href="http://example.com/capabilitylist.xml"/>
  <rs:md capability="resourcedump-manifest" at="2013-01-03T09:00:00Z"/>
  <url>
    <loc>http://example.com/res1</loc>
    <rs:md path="/res1" length="5" hash="md5:` + explorertest.MD5(body) + `" type="text/plain"/>
  </url>
  <url>
    <loc>http://example.com/res2</loc>
    <rs:md path="/res2" length="3" type="text/plain"/>
  </url>
</urlset>
`
	dir := t.TempDir()
	good := filepath.Join(dir, "good.zip")
	os.WriteFile(good, explorertest.Zip(
		explorertest.File{Name: "manifest.xml", Data: []byte(manifest)},
		explorertest.File{Name: "res1", Data: body},
		explorertest.File{Name: "res2", Data: []byte("abc")},
	), 0o644)
	status, res, errs := validateJSON(t, "", good)
	if status != exitOK || len(res.Documents) != 1 || res.Documents[0].Kind != "resourcedump-manifest" {
		t.Fatalf("good package: status %d, stderr %q, %+v", status, errs, res)
	}
	bad := explorertest.Zip(
		explorertest.File{Name: "manifest.xml", Data: []byte(manifest)},
		explorertest.File{Name: "res1", Data: []byte("HELLO")},
		explorertest.File{Name: "../evil", Data: []byte("x")},
	)
	status, res, _ = validateJSON(t, string(bad), "-")
	for _, rule := range []string{"RD105", "RD103", "RD110"} {
		if !hasRule(res, 0, rule) {
			t.Errorf("bad package on stdin: no %s finding (status %d): %+v", rule, status, res.Documents)
		}
	}
}
