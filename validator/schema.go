package validator

// DefaultRSVersion is the ResourceSync schema version used when Options
// does not name one.
const DefaultRSVersion = "1.1"

// xsdRules are the rules under which XSD findings are reported.
var xsdRules []*Rule

// schemaFor returns the XSD step for a schema version (stub until the XSD
// engine lands).
func schemaFor(version string, extra []SchemaFile) (schemaStep, error) { return nil, nil }
