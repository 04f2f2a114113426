package validator

import (
	"fmt"
	"sync"

	"github.com/rscheck/rscheck/schemas"
	"github.com/rscheck/rscheck/validator/xmlscan"
	"github.com/rscheck/rscheck/validator/xsd"
)

// DefaultRSVersion is the ResourceSync schema version used when Options
// does not name one.
const DefaultRSVersion = schemas.DefaultVersion

// RSVersions lists the ResourceSync schema versions that can be selected.
func RSVersions() []string { return schemas.Versions() }

// specSchema is where the specification introduces the schemas.
var specSchema = specFormats

// XSD rules: one per kind of schema-validity error, so that findings can be
// filtered and documented like any other. Their findings come from the XSD
// engine (package xsd); the messages are its own.
var (
	ruleXSDUnexpected = xsdRule("XSD101", "unexpected-element", "Elements appear only where the schema's content model allows them, in order.")
	ruleXSDMissing    = xsdRule("XSD102", "missing-element", "Elements the schema requires (such as <loc> in <url>, or at least one <url>) are present.")
	ruleXSDRoot       = xsdRule("XSD103", "undeclared-root", "The root element is declared by the schemas: <urlset> or <sitemapindex> in the Sitemap namespace.")
	ruleXSDStrict     = xsdRule("XSD104", "undeclared-extension", "Elements from other namespaces are declared by a loaded schema (the Sitemap wildcards are strict); load extension schemas with --schema.")
	ruleXSDAttrValue  = xsdRule("XSD105", "attribute-value", "Attribute values belong to the attribute's datatype (dateTime, integer, the type and path patterns, …).")
	ruleXSDAttr       = xsdRule("XSD106", "unexpected-attribute", "Only the attributes the schema declares appear; extension attributes need a namespace prefix.")
	ruleXSDAttrReq    = xsdRule("XSD107", "missing-attribute", "Attributes the schema requires are present.")
	ruleXSDValue      = xsdRule("XSD108", "element-value", "Element content belongs to the element's datatype (anyURI of 12 to 2,048 characters, date or dateTime, the changefreq values, a priority from 0.0 to 1.0).")
	ruleXSDText       = xsdRule("XSD109", "text-not-allowed", "Elements with element-only content hold no text other than whitespace.")
	ruleXSDEmpty      = xsdRule("XSD110", "must-be-empty", "Elements declared empty, such as <rs:md> and <rs:ln>, have no content.")
	ruleXSDFixed      = xsdRule("XSD111", "fixed-value", "Elements and attributes with a fixed value in the schema have that value.")
	ruleXSDOther      = xsdRule("XSD100", "schema-validity", "The document is valid against the XML Schemas (other constraints: xsi:type, xsi:nil, abstract elements, mixed content).")
)

func xsdRule(id, name, doc string) *Rule {
	return &Rule{ID: id, Name: "xsd-" + name, Severity: Error, Spec: specSchema, Doc: doc}
}

var xsdRules = []*Rule{ruleXSDOther, ruleXSDUnexpected, ruleXSDMissing, ruleXSDRoot, ruleXSDStrict,
	ruleXSDAttrValue, ruleXSDAttr, ruleXSDAttrReq, ruleXSDValue, ruleXSDText, ruleXSDEmpty, ruleXSDFixed}

// xsdRuleFor maps an XSD error kind to its rule.
func xsdRuleFor(k xsd.ErrorKind) *Rule {
	switch k.(type) {
	case *xsd.UnexpectedElement:
		return ruleXSDUnexpected
	case *xsd.MissingElements:
		return ruleXSDMissing
	case *xsd.NoRootDeclaration:
		return ruleXSDRoot
	case *xsd.NoStrictDeclaration:
		return ruleXSDStrict
	case *xsd.InvalidAttributeValue:
		return ruleXSDAttrValue
	case *xsd.UnexpectedAttribute:
		return ruleXSDAttr
	case *xsd.MissingAttribute:
		return ruleXSDAttrReq
	case *xsd.InvalidElementValue:
		return ruleXSDValue
	case *xsd.TextNotAllowed:
		return ruleXSDText
	case *xsd.NotEmpty:
		return ruleXSDEmpty
	case *xsd.FixedValueMismatch:
		return ruleXSDFixed
	}
	return ruleXSDOther
}

// builtinSchemas holds the compiled embedded schemas, one per version,
// compiled on first use: compiling in init would slow every start-up,
// notably the browser's.
var builtinSchemas sync.Map // version → func() (*xsd.Schema, error)

// Schema returns the compiled embedded schemas for a ResourceSync version
// ("" means DefaultRSVersion), plus any extra schema documents.
func Schema(version string, extra []SchemaFile) (*xsd.Schema, error) {
	if version == "" {
		version = DefaultRSVersion
	}
	roots, err := schemas.Roots(version)
	if err != nil {
		return nil, err
	}
	compile := func() (*xsd.Schema, error) {
		c := xsd.NewCompiler()
		c.SetFS(schemas.FS)
		locs := roots
		for _, f := range extra {
			c.AddResource(f.Location, f.Data)
			locs = append(locs[:len(locs):len(locs)], f.Location)
		}
		s, err := c.Compile(locs...)
		if err != nil {
			return nil, fmt.Errorf("compiling the schemas: %w", err)
		}
		return s, nil
	}
	if len(extra) > 0 {
		return compile()
	}
	once, _ := builtinSchemas.LoadOrStore(version, sync.OnceValues(compile))
	return once.(func() (*xsd.Schema, error))()
}

// schemaFor returns the XSD step for a schema version and extra schemas.
func schemaFor(version string, extra []SchemaFile) (schemaStep, error) {
	s, err := Schema(version, extra)
	if err != nil {
		return nil, err
	}
	return func(sc *xmlscan.Scanner, report func(Finding)) tokenChecker {
		return s.NewValidator(sc, func(e *xsd.Error) {
			report(xsdRuleFor(e.Kind).Finding(e.Pos.Line, e.Pos.Col, e.Path, "%s", e.Message))
		})
	}, nil
}
