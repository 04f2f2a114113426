package xsd

import (
	"fmt"
	"strings"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// Error is one schema-validity error in an instance document.
//
// Errors are data: Kind tells what went wrong (match it with a type switch
// or errors.As-style type assertion), the other fields tell where.
type Error struct {
	// Kind is the kind of violation, one of the *Kind types of this package
	// (for example *UnexpectedElement or *InvalidAttributeValue).
	Kind ErrorKind
	// Pos is the precise position: the attribute's for an attribute error,
	// the start tag's for an element error.
	Pos xmlscan.Pos
	// Line is the line libxml2 reports for this error: the line of the ">"
	// that ends the start tag of the element concerned, also for errors on
	// its attributes and content. See the package documentation for the
	// rule libxml2 applies beyond line 65535.
	Line int
	// Path is the element path, such as "/urlset/url[17]/rs:md/@hash".
	Path string
	// Component names the schema component whose constraint is violated,
	// such as `sitemap.xsd: complexType "tUrl"`.
	Component string
	// Message describes the violation for a person: what is wrong and what
	// was expected.
	Message string
}

// Error returns "line N: path: message".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Path, e.Message)
}

// ErrorKind is the kind of a validation error. Each kind is a pointer to a
// struct type of this package carrying the details of that kind.
type ErrorKind interface {
	// Code is a short stable identifier of the kind, such as
	// "unexpected-element", for tests, filters and machine output.
	Code() string
	// String describes the violation for a person.
	String() string
}

// Expected is one item of what a content model accepts at some point: an
// element name, or a wildcard.
type Expected struct {
	// Name is the expected element's name (Prefix is empty), when Wildcard
	// is empty.
	Name xmlscan.Name
	// Wildcard is set for a wildcard: "##any", "##other:NS" (any namespace
	// except NS and no namespace), or a space-separated list of namespace
	// names where "##local" stands for no namespace.
	Wildcard string
}

// displayName formats an expanded name for messages: as written when it
// comes from the document (it has a prefix), else with a prefix bound to
// its namespace in the document, else as {namespace}local.
func displayName(n xmlscan.Name, prefixOf func(string) (string, bool)) string {
	if n.Prefix != "" {
		return n.Prefix + ":" + n.Local
	}
	if n.Space == "" {
		return n.Local
	}
	if prefixOf != nil {
		if p, ok := prefixOf(n.Space); ok {
			if p == "" {
				return n.Local
			}
			return p + ":" + n.Local
		}
	}
	return "{" + n.Space + "}" + n.Local
}

func (x Expected) format(prefixOf func(string) (string, bool)) string {
	if x.Wildcard == "" {
		return "<" + displayName(x.Name, prefixOf) + ">"
	}
	switch {
	case x.Wildcard == "##any":
		return "any element"
	case strings.HasPrefix(x.Wildcard, "##other:"):
		ns := strings.TrimPrefix(x.Wildcard, "##other:")
		if ns == "" {
			return "any element in a namespace"
		}
		return "any element in a namespace other than " + ns
	}
	return "any element in " + x.Wildcard
}

// String formats the expectation for messages, with expanded names.
func (x Expected) String() string { return x.format(nil) }

func formatExpected(xs []Expected, prefixOf func(string) (string, bool)) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			if i == len(xs)-1 {
				b.WriteString(" or ")
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(x.format(prefixOf))
	}
	return b.String()
}

// elementKind holds what every element-level kind knows: the element's
// name and how to display names found in the document.
type elementKind struct {
	// Element is the expanded name of the element concerned.
	Element  xmlscan.Name
	prefixOf func(string) (string, bool)
}

// elem shows the element as written in the document.
func (k elementKind) elem() string {
	if k.Element.Prefix != "" {
		return "<" + k.Element.Prefix + ":" + k.Element.Local + ">"
	}
	return "<" + k.Element.Local + ">"
}

// UnexpectedElement: a child element the content model does not allow at
// this point (libxml2: "This element is not expected"). libxml2 then skips
// the rest of the parent's content, and so does this package.
type UnexpectedElement struct {
	elementKind
	// Expected lists what the content model accepts at this point; empty
	// when nothing more is allowed.
	Expected []Expected
}

// Code implements ErrorKind.
func (*UnexpectedElement) Code() string { return "unexpected-element" }

func (k *UnexpectedElement) String() string {
	if len(k.Expected) == 0 {
		return "element " + k.elem() + " is not allowed here; no more elements are allowed"
	}
	return "element " + k.elem() + " is not allowed here; expected " + formatExpected(k.Expected, k.prefixOf)
}

// MissingElements: the element ends before its content model is
// satisfied (libxml2: "Missing child element(s)").
type MissingElements struct {
	elementKind
	// Expected lists what the content model still requires or accepts.
	Expected []Expected
}

// Code implements ErrorKind.
func (*MissingElements) Code() string { return "missing-elements" }

func (k *MissingElements) String() string {
	return "element " + k.elem() + " is incomplete; expected " + formatExpected(k.Expected, k.prefixOf)
}

// NoRootDeclaration: the root element has no global declaration (libxml2:
// "No matching global declaration available for the validation root").
type NoRootDeclaration struct{ elementKind }

// Code implements ErrorKind.
func (*NoRootDeclaration) Code() string { return "no-root-declaration" }

func (k *NoRootDeclaration) String() string {
	return "root element " + k.elem() + " is not declared by the schema"
}

// NoStrictDeclaration: an element matched a wildcard with
// processContents="strict" but has no global declaration (libxml2: "No
// matching global element declaration available, but demanded by the
// strict wildcard"). Its content is not validated.
type NoStrictDeclaration struct{ elementKind }

// Code implements ErrorKind.
func (*NoStrictDeclaration) Code() string { return "no-strict-declaration" }

func (k *NoStrictDeclaration) String() string {
	if k.Element.Space == "" {
		return "element " + k.elem() + " (no namespace) is not declared, but the wildcard it matches demands a declaration"
	}
	return "element " + k.elem() + " is not declared (no schema is loaded for namespace " + k.Element.Space + "), but the wildcard it matches demands a declaration"
}

// valueKind holds what both value kinds know.
type valueKind struct {
	// Value is the value as found in the document.
	Value string
	// Type names the simple type violated for a person, such as
	// "xs:dateTime", "contentType (xs:string)" or
	// "tLastmod (union of xs:date, xs:dateTime)".
	Type string
	// Facet is the facet violated ("pattern", "enumeration", "minLength",
	// "maxInclusive", ...); empty when the value is not in the lexical
	// space of the type (or of a list item type or of any union member).
	Facet string
	// FacetValue is the facet's value, such as the pattern or the bound;
	// for enumeration the allowed values joined by ", ".
	FacetValue string
	// Detail is a short reason for special cases (an undeclared QName
	// prefix, a duplicate ID) or the unit of a length facet; usually empty.
	Detail string
}

func (k valueKind) describe() string {
	v := quoteValue(k.Value)
	switch k.Facet {
	case "":
		if k.Detail != "" {
			return v + " is not a valid " + k.Type + ": " + k.Detail
		}
		return v + " is not a valid " + k.Type
	case "enumeration":
		return v + " is not one of " + k.FacetValue + "; type " + k.Type
	case "pattern":
		return v + " does not match the pattern " + k.FacetValue + "; type " + k.Type
	case "length":
		return v + " must have " + k.FacetValue + " " + k.Detail + "; type " + k.Type
	case "minLength":
		return v + " is too short: at least " + k.FacetValue + " " + k.Detail + "; type " + k.Type
	case "maxLength":
		return v + " is too long: at most " + k.FacetValue + " " + k.Detail + "; type " + k.Type
	case "minInclusive":
		return v + " is less than the minimum " + k.FacetValue + "; type " + k.Type
	case "maxInclusive":
		return v + " is greater than the maximum " + k.FacetValue + "; type " + k.Type
	case "minExclusive":
		return v + " is not greater than " + k.FacetValue + "; type " + k.Type
	case "maxExclusive":
		return v + " is not less than " + k.FacetValue + "; type " + k.Type
	case "totalDigits":
		return v + " has more than " + k.FacetValue + " digits; type " + k.Type
	case "fractionDigits":
		return v + " has more than " + k.FacetValue + " fraction digits; type " + k.Type
	}
	return v + " violates " + k.Facet + " " + k.FacetValue + " of " + k.Type
}

func quoteValue(s string) string {
	const max = 120
	if len(s) > max {
		s = s[:max] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// InvalidAttributeValue: an attribute value is not valid for its type.
type InvalidAttributeValue struct {
	elementKind
	valueKind
	// Attribute is the attribute's expanded name.
	Attribute xmlscan.Name
}

// Code implements ErrorKind.
func (*InvalidAttributeValue) Code() string { return "invalid-attribute-value" }

func (k *InvalidAttributeValue) String() string {
	return "attribute " + displayName(k.Attribute, k.prefixOf) + "=" + k.valueKind.describe()
}

// InvalidElementValue: the character content of an element with simple
// content is not valid for its type.
type InvalidElementValue struct {
	elementKind
	valueKind
}

// Code implements ErrorKind.
func (*InvalidElementValue) Code() string { return "invalid-element-value" }

func (k *InvalidElementValue) String() string {
	return "element " + k.elem() + " value " + k.valueKind.describe()
}

// UnexpectedAttribute: an attribute neither declared nor matched by an
// attribute wildcard (libxml2: "The attribute 'x' is not allowed").
type UnexpectedAttribute struct {
	elementKind
	// Attribute is the attribute's expanded name.
	Attribute xmlscan.Name
	// Declared lists the attributes the element's type declares.
	Declared []xmlscan.Name
}

// Code implements ErrorKind.
func (*UnexpectedAttribute) Code() string { return "unexpected-attribute" }

func (k *UnexpectedAttribute) String() string {
	s := "attribute " + displayName(k.Attribute, k.prefixOf) + " is not allowed on " + k.elem()
	if len(k.Declared) > 0 {
		names := make([]string, len(k.Declared))
		for i, n := range k.Declared {
			names[i] = displayName(n, k.prefixOf)
		}
		s += "; allowed: " + strings.Join(names, ", ")
	}
	return s
}

// MissingAttribute: a required attribute is absent.
type MissingAttribute struct {
	elementKind
	// Attribute is the missing attribute's expanded name.
	Attribute xmlscan.Name
}

// Code implements ErrorKind.
func (*MissingAttribute) Code() string { return "missing-attribute" }

func (k *MissingAttribute) String() string {
	return "element " + k.elem() + " lacks the required attribute " + displayName(k.Attribute, k.prefixOf)
}

// TextNotAllowed: non-whitespace character data in element-only content.
type TextNotAllowed struct{ elementKind }

// Code implements ErrorKind.
func (*TextNotAllowed) Code() string { return "text-not-allowed" }

func (k *TextNotAllowed) String() string {
	return "element " + k.elem() + " may contain only elements, but contains text"
}

// NotEmpty: character data or a child element in an element whose content
// type is empty.
type NotEmpty struct {
	elementKind
	// Child is the child element found, or the zero Name if the content
	// was text.
	Child xmlscan.Name
}

// Code implements ErrorKind.
func (*NotEmpty) Code() string { return "not-empty" }

func (k *NotEmpty) String() string {
	if k.Child.Local != "" {
		return "element " + k.elem() + " must be empty, but contains element <" + displayName(k.Child, k.prefixOf) + ">"
	}
	return "element " + k.elem() + " must be empty, but contains text"
}

// ElementInSimpleContent: a child element in an element whose type has
// simple content.
type ElementInSimpleContent struct {
	elementKind
	// Child is the child element found.
	Child xmlscan.Name
}

// Code implements ErrorKind.
func (*ElementInSimpleContent) Code() string { return "element-in-simple-content" }

func (k *ElementInSimpleContent) String() string {
	return "element " + k.elem() + " may contain only text, but contains element <" + displayName(k.Child, k.prefixOf) + ">"
}

// FixedValueMismatch: an element or attribute with a fixed value
// constraint has another value.
type FixedValueMismatch struct {
	elementKind
	// Attribute is set for an attribute, zero for the element's content.
	Attribute xmlscan.Name
	// Value is the value found, Fixed the value required.
	Value, Fixed string
}

// Code implements ErrorKind.
func (*FixedValueMismatch) Code() string { return "fixed-value-mismatch" }

func (k *FixedValueMismatch) String() string {
	what := "element " + k.elem()
	if k.Attribute.Local != "" {
		what = "attribute " + displayName(k.Attribute, k.prefixOf)
	}
	return what + " has the value " + quoteValue(k.Value) + " but the schema fixes it to " + quoteValue(k.Fixed)
}

// NilError: a problem with xsi:nil (not nillable, a nilled element with
// content, or an invalid xsi:nil value).
type NilError struct {
	elementKind
	// Reason says which.
	Reason string
}

// Code implements ErrorKind.
func (*NilError) Code() string { return "nil" }

func (k *NilError) String() string { return "element " + k.elem() + ": " + k.Reason }

// XsiTypeError: an xsi:type attribute names no type, a type not validly
// derived from the declared type, or a blocked derivation.
type XsiTypeError struct {
	elementKind
	// Value is the xsi:type value.
	Value string
	// Reason says what is wrong.
	Reason string
}

// Code implements ErrorKind.
func (*XsiTypeError) Code() string { return "xsi-type" }

func (k *XsiTypeError) String() string {
	return "element " + k.elem() + ": xsi:type=" + quoteValue(k.Value) + ": " + k.Reason
}

// AbstractError: the element declaration or its type is abstract, so the
// element cannot appear (without a substitution or xsi:type).
type AbstractError struct {
	elementKind
	// Type is set when the type (not the element) is abstract.
	Type string
}

// Code implements ErrorKind.
func (*AbstractError) Code() string { return "abstract" }

func (k *AbstractError) String() string {
	if k.Type != "" {
		return "element " + k.elem() + " has the abstract type " + k.Type
	}
	return "element " + k.elem() + " is declared abstract"
}

// CompileError is an error in a schema document: malformed XML, a
// construct that is invalid, or one this package does not support.
type CompileError struct {
	// Location is the schema document's location as given to AddResource
	// or resolved from a schemaLocation.
	Location string
	// Line is the line in that document, 0 if unknown.
	Line int
	// Unsupported is set when the schema may be valid but uses a construct
	// this package refuses (xs:redefine, identity constraints, ...).
	Unsupported bool
	// Msg says what is wrong.
	Msg string
}

func (e *CompileError) Error() string {
	var b strings.Builder
	b.WriteString(e.Location)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Unsupported {
		b.WriteString("unsupported: ")
	}
	b.WriteString(e.Msg)
	return b.String()
}
