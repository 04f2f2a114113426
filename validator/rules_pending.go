package validator

// pendingRules are rules written and tested but not yet in the registry
// (rules.go). Their test documents are in testdata/rules/pending and are
// checked by TestPendingRules. To register them: add them to registry in
// rules.go, `git mv testdata/rules/pending/*.xml testdata/rules/`, and
// delete this file, rules_pending_test.go and TestPendingRules.
var pendingRules = []*Rule{
	ruleCapListIndex, // RS112, §9
	ruleOneVia,       // RS512, §14.8
}
