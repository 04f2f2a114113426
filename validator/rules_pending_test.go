package validator

// PendingRules exports the rules awaiting registration to the external
// test package (TestPendingRules in examples_test.go), leaving out those
// already registered.
func PendingRules() []*Rule {
	var out []*Rule
	for _, r := range pendingRules {
		if Lookup(r.ID) == nil {
			out = append(out, r)
		}
	}
	return out
}
