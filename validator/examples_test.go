package validator_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/validator"
)

// examplesDir holds the example documents of the specifications, extracted
// from the HTML: ../shared relative to the repository root.
var examplesDir = filepath.Join("..", "..", "shared", "reference", "schemas", "xmllint-tests")

// exampleErrata are the spec examples that are not valid ResourceSync
// documents, with the exact findings ("RULE@line", sorted) they yield.
// Every other example must yield no error finding.
var exampleErrata = map[string][]string{
	// §1.3 walkthrough: Examples 1-5 and 8 omit the up link that §10.1,
	// §10.2, §11.1, §11.2 and §12.1 make mandatory.
	"spec-1.1-inline/ex01.xml": {"RS325@4"},
	"spec-1.1-inline/ex02.xml": {"RS325@4"},
	"spec-1.1-inline/ex03.xml": {"RS325@4"},
	"spec-1.1-inline/ex04.xml": {"RS325@4", "RS317@6"},
	"spec-1.1-inline/ex05.xml": {"RS325@4", "RS316@8", "RS316@13"},
	"spec-1.1-inline/ex08.xml": {"RS325@4"},
	// Example 27: the sha-256 values are not hex digests (§7 requires
	// hex-encoded digests), and its changes have no datetime.
	"spec-1.1-inline/ex27.xml": {"RS331@10", "RS203@11", "RS203@16", "RS203@23", "RS203@28"},
	// The skeletons of Table 2 are not documents: "..." placeholders.
	"spec-1.1-inline/table2-sitemapindex-skeleton.xml": {"RS101@2", "XSD103@2"},
	"spec-1.1-inline/table2-urlset-skeleton.xml": {"RS105@4", "RS110@5", "SM103@7", "XSD108@7",
		"RS110@9", "XSD102@11", "XSD109@11"},
}

// exampleKinds is the kind each example must be detected as.
var exampleKinds = map[string]validator.Kind{
	"ex01.xml": validator.ResourceList, "ex02.xml": validator.ResourceList,
	"ex03.xml": validator.ChangeList, "ex04.xml": validator.ResourceDump,
	"ex05.xml": validator.ResourceDumpManifest, "ex06.xml": validator.CapabilityList,
	"ex07.xml": validator.Description, "ex08.xml": validator.ResourceListIndex,
	"ex12.xml": validator.Description, "ex13.xml": validator.CapabilityList,
	"ex14.xml": validator.ResourceList, "ex15.xml": validator.ResourceListIndex,
	"ex16.xml": validator.ResourceList, "ex17.xml": validator.ResourceDump,
	"ex18.xml": validator.ResourceDumpManifest, "ex19.xml": validator.ChangeList,
	"ex20.xml": validator.ChangeListIndex, "ex21.xml": validator.ChangeList,
	"ex22.xml": validator.ChangeDump, "ex23.xml": validator.ChangeDumpManifest,
	"ex24.xml": validator.ChangeList, "ex25.xml": validator.ChangeList,
	"ex26.xml": validator.ChangeList, "ex27.xml": validator.ChangeList,
	"ex28.xml": validator.ChangeList, "ex29.xml": validator.ChangeList,
	"ex30.xml": validator.ChangeList, "ex31.xml": validator.ChangeList,
	"ex32.xml": validator.ChangeList, "ex33.xml": validator.ChangeList,
	"table2-sitemapindex-skeleton.xml": validator.Unknown,
	"table2-urlset-skeleton.xml":       validator.UnknownCapability,
	"framework_notification_ex1.xml":   validator.FrameworkNotification,
	"framework_notification_ex2.xml":   validator.FrameworkNotification,
	"notification_ex1.xml":             validator.ChangeNotification,
}

// TestSpecExamples validates every example document of the ResourceSync
// 1.1 and Notification 1.0.1 specifications: none may have an error
// finding, except the known errata, whose findings are asserted exactly.
func TestSpecExamples(t *testing.T) {
	var files []string
	for _, sub := range []string{"spec-1.1-inline", "notification-1.0.1-inline"} {
		fs, err := filepath.Glob(filepath.Join(examplesDir, sub, "*.xml"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no spec examples in %s (the shared reference folder must be next to the repository): %v", filepath.Join(examplesDir, sub), err)
		}
		files = append(files, fs...)
	}
	if len(files) != len(exampleKinds) {
		t.Errorf("found %d example documents, expected %d", len(files), len(exampleKinds))
	}
	seen := map[string]bool{}
	for _, file := range files {
		name := filepath.ToSlash(strings.TrimPrefix(file, examplesDir+string(filepath.Separator)))
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := validator.Validate(context.Background(), bytes.NewReader(data), nil)
			if err != nil {
				t.Fatal(err)
			}
			if want, ok := exampleKinds[filepath.Base(file)]; !ok {
				t.Errorf("unexpected example %s", name)
			} else if rep.Kind != want {
				t.Errorf("kind %s, want %s", rep.Kind, want)
			}
			if errata, ok := exampleErrata[name]; ok {
				var got []string
				for _, f := range rep.Findings {
					got = append(got, fmt.Sprintf("%s@%d", f.Rule, f.Line))
				}
				byLine := func(a, b string) int {
					ra, la, _ := strings.Cut(a, "@")
					rb, lb, _ := strings.Cut(b, "@")
					if len(la) != len(lb) {
						return len(la) - len(lb)
					}
					if c := strings.Compare(la, lb); c != 0 {
						return c
					}
					return strings.Compare(ra, rb)
				}
				slices.SortFunc(got, byLine)
				errata = slices.Clone(errata)
				slices.SortFunc(errata, byLine)
				if !slices.Equal(got, errata) {
					t.Errorf("findings %v, want exactly %v\n%s", got, errata, dump(rep))
				}
				return
			}
			for _, f := range rep.Findings {
				if f.Severity == validator.Error {
					t.Errorf("%d:%d: error %s: %s", f.Line, f.Column, f.Rule, f.Message)
				}
			}
		})
	}
	for name := range exampleErrata {
		if !seen[name] {
			t.Errorf("erratum %s: no such example", name)
		}
	}
}

func dump(rep *validator.Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		fmt.Fprintf(&b, "\t%s\n", f)
	}
	return b.String()
}
