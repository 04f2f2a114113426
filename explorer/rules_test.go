//go:build !js

// Natively only: these tests crawl real HTTP servers on 127.0.0.1.

package explorer_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/explorer/explorertest"
	"github.com/rscheck/rscheck/validator"
)

// TestRules checks the catalogue: well-formed, unique IDs and names (also
// against the validator's), in ID order, and every spec anchor exists in
// the published specification.
func TestRules(t *testing.T) {
	rules := explorer.Rules()
	if err := validator.CheckRegistry(append(rules, validator.Rules()...)); err != nil {
		t.Error(err)
	}
	for i, r := range rules {
		if r.Run != nil {
			t.Errorf("%s has a Run: the explorer reports its findings itself", r.ID)
		}
		if i > 0 && rules[i-1].ID >= r.ID {
			t.Errorf("rules out of order: %s before %s", rules[i-1].ID, r.ID)
		}
		if !regexp.MustCompile(`^R[XFDA]1\d\d$`).MatchString(r.ID) {
			t.Errorf("%s is outside the explorer's ranges", r.ID)
		}
	}
	specs := map[validator.SpecDoc]string{
		validator.SpecCore:               "1.1_resourcesync.html",
		validator.SpecChangeNotification: "notification_1.0.1_notification.html",
	}
	for _, r := range rules {
		file, ok := specs[r.Spec.Doc]
		if !ok || r.Spec.Anchor == "" {
			t.Errorf("%s: no anchor in a known specification", r.ID)
			continue
		}
		data, err := os.ReadFile("../../shared/spec/" + file)
		if err != nil {
			t.Skipf("specification not available: %v", err)
		}
		if !strings.Contains(string(data), `<a name="`+r.Spec.Anchor+`"`) {
			t.Errorf("%s: anchor %q is not in %s", r.ID, r.Spec.Anchor, file)
		}
	}
}

// TestFindingsUseCatalogue checks that every finding of the explorations
// of the fixtures names a rule of the explorer's or the validator's
// catalogue, with its severity and section.
func TestFindingsUseCatalogue(t *testing.T) {
	byID := map[string]*validator.Rule{}
	for _, r := range append(explorer.Rules(), validator.Rules()...) {
		byID[r.ID] = r
	}
	src := explorertest.NewSource(t, &explorertest.Options{Defective: true})
	res, err := explorer.Explore(context.Background(), src.Root, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings() {
		r := byID[f.Rule]
		if r == nil {
			t.Errorf("%s: rule not in any catalogue", f)
			continue
		}
		if f.Severity != r.Severity || f.Spec != r.Spec.Label() || f.SpecURL != r.Spec.URL() {
			t.Errorf("%s: severity or section differ from the catalogue's %v §%s", f, r.Severity, r.Spec)
		}
	}
}

// Explore a Source from its site root and list what is wrong with it.
func ExampleExplore() {
	src := explorertest.Start(&explorertest.Options{Defective: true})
	defer src.Close()
	res, err := explorer.Explore(context.Background(), src.Root, nil)
	if err != nil {
		panic(err)
	}
	n := map[string]int{}
	for _, f := range res.Findings() {
		if f.Severity == validator.Error && strings.HasPrefix(f.Rule, "RX") {
			n[f.Rule]++
		}
	}
	fmt.Println(len(res.Documents) > 20, res.Roots[0].URL == src.WellKnown)
	fmt.Println(n["RX101"], n["RX104"], n["RX106"], n["RX107"])
	// Output:
	// true true
	// 1 1 1 1
}
