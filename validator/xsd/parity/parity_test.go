//go:build libxml2

package parity

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/schemas"
)

// failuresDir is where documents that disagree are written, one directory
// per test and version; testdata/failures is not committed.
func failuresDir(test, version string) string {
	return filepath.Join("testdata", "failures", test, version)
}

// resetFailures removes what an earlier run of test left behind, so that
// testdata/failures only ever shows the latest disagreements.
func resetFailures(t *testing.T) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join("testdata", "failures", t.Name())); err != nil {
		t.Fatal(err)
	}
}

// recordFailure writes the document and the report of a disagreement under
// testdata/failures and returns the path of the document.
func recordFailure(t *testing.T, test, version string, d corpusDoc, report string) string {
	t.Helper()
	dir := failuresDir(test, version)
	if err := writeDoc(dir, d); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fileName(d.Name))
	txt := strings.TrimSuffix(path, ".xml") + ".txt"
	if err := os.WriteFile(txt, []byte(d.Name+"\n"+report+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// diffLibxml2 compares two libxml2 verdicts on the same document. Our
// schemas mirror the official ones component by component, so libxml2 must
// report not only the same verdict and first error line but the very same
// errors, messages included.
func diffLibxml2(official, ours verdict) string {
	switch {
	case official.WellFormed != ours.WellFormed:
		return "well-formedness differs"
	case official.Valid != ours.Valid:
		return "verdict differs"
	case official.firstLine() != ours.firstLine():
		return "first error line differs"
	case len(official.Errors) != len(ours.Errors):
		return "number of errors differs"
	}
	for i := range official.Errors {
		if official.Errors[i] != ours.Errors[i] {
			return fmt.Sprintf("error %d differs", i+1)
		}
	}
	return ""
}

// TestOfficialVsOurSchemas proves that the schemas of package schemas are
// equivalent to the official ones: for every version and every corpus
// document, libxml2 gives the same verdict and reports the same errors on
// the same lines with either. It needs libxml2 only, not our engine.
func TestOfficialVsOurSchemas(t *testing.T) {
	docs := loadCorpus(t)
	resetFailures(t)
	for _, version := range schemas.Versions() {
		t.Run(version, func(t *testing.T) {
			official := officialSchema(t, version)
			ours := ourSchema(t, version)
			var n, valid, invalid, malformed int
			var disagreements []string
			for _, d := range docs {
				t.Run(d.Name, func(t *testing.T) {
					want, err := official.validate(d.Data)
					if err != nil {
						t.Fatal(err)
					}
					got, err := ours.validate(d.Data)
					if err != nil {
						t.Fatal(err)
					}
					n++
					switch {
					case !want.WellFormed:
						malformed++
					case want.Valid:
						valid++
					default:
						invalid++
					}
					if diff := diffLibxml2(want, got); diff != "" {
						report := fmt.Sprintf("%s\n\tofficial schemas: %v\n\tour schemas:      %v", diff, want, got)
						path := recordFailure(t, "TestOfficialVsOurSchemas", version, d, report)
						disagreements = append(disagreements, d.Name+": "+diff)
						t.Errorf("%s (written to %s)", report, path)
					}
				})
			}
			t.Logf("version %s: %d documents (%d valid, %d invalid, %d not well-formed): %d identical, %d disagreements",
				version, n, valid, invalid, malformed, n-len(disagreements), len(disagreements))
			if len(disagreements) > 0 {
				sort.Strings(disagreements)
				t.Errorf("version %s: official and our schemas disagree on %d documents:\n\t%s",
					version, len(disagreements), strings.Join(disagreements, "\n\t"))
			}
		})
	}
}
