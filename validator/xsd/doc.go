// Package xsd validates XML documents against W3C XML Schema 1.0 schemas,
// in pure Go, with the verdicts of libxml2 2.9.14 (xmllint --schema).
//
// It exists because rscheck must validate Sitemap and ResourceSync
// documents in the browser too, where libxml2 (cgo) cannot run, and its
// schema verdicts must mean exactly what xmllint's do.
//
// # Use
//
// Three stages, as in santhosh-tekuri/jsonschema: a mutable [Compiler]
// loads and compiles schema documents into an immutable [Schema], safe for
// concurrent use; each document is validated by its own [Validator], to
// which the caller pushes the tokens of an [xmlscan.Scanner] (so one pass
// over the document can feed the schema validator and other checks):
//
//	c := xsd.NewCompiler()
//	c.SetFS(os.DirFS("schemas"))            // or AddResource(location, data)
//	s, err := c.Compile("sitemap.xsd", "resourcesync.xsd")
//	...
//	sc := xmlscan.NewScanner(r)
//	v := s.NewValidator(sc, func(e *xsd.Error) { ... })
//	for {
//		t, err := sc.Next()
//		if err != nil { ... } // io.EOF: done
//		v.Token(t)
//	}
//	v.Close()
//
// [Schema.Validate] does all that for a reader. Errors are data: an
// [Error] has a Kind (one struct type per kind of violation, such as
// *[UnexpectedElement] or *[InvalidAttributeValue]), the precise Pos, the
// Line libxml2 would report, an element Path, the violated schema
// Component and a Message for a person. Schema problems are
// *[CompileError]s, with the schema location and line.
//
// Nothing is fetched from the network: schema documents come from
// registered resources (by location, URLs included) or from an fs.FS.
//
// # What is supported
//
// Everything of XML Schema 1.0 structures except what is refused below:
// global and local element and attribute declarations (ref, form,
// elementFormDefault, attributeFormDefault), named and anonymous simple and
// complex types, sequence, choice, all, model and attribute groups,
// minOccurs and maxOccurs (bounds are expanded into automaton positions, up
// to 100,000), element and attribute wildcards (##any, ##other,
// ##targetNamespace, ##local, namespace lists; strict, lax and skip),
// empty, simple, element-only and mixed content, simpleContent and
// complexContent extension and restriction, use="required" and
// "prohibited", default and fixed values, nillable and xsi:nil, xsi:type,
// abstract elements and types, substitution groups (with block), include
// (chameleon included), import, and xsi:schemaLocation and
// xsi:noNamespaceSchemaLocation, which are allowed everywhere and ignored,
// as xmllint --schema ignores them. Content models are compiled to
// deterministic automata; a content model that is not deterministic (two
// element particles, or two wildcards, competing) is refused, as libxml2
// refuses it.
//
// All the built-in datatypes, with the facets length, minLength,
// maxLength, pattern, enumeration, whiteSpace, minInclusive, maxInclusive,
// minExclusive, maxExclusive, totalDigits and fractionDigits, on atomic,
// list and union types. Patterns are translated to Go's RE2 (linear time:
// no pattern can make validation slow) with character classes computed
// from libxml2's own Unicode tables (see unicode_tables.go).
//
// # Fidelity to libxml2
//
// libxml2 departs from XML Schema in many places, and this package follows
// libxml2, because a schema verdict must mean what xmllint says. Among
// others (each is tested against xmllint, see the libxml2 build tag):
//
//   - lexical spaces: anyURI accepts nearly anything ("not a uri?"); the
//     bounded integer types (long ... unsignedByte) refuse surrounding
//     whitespace while integer accepts it; decimals and integers have at
//     most 24 significant digits; a float may end in an exponent marker
//     ("1e"); dateTime refuses leading whitespace and accepts trailing
//     whitespace only after a timezone; base64Binary ignores characters
//     outside its alphabet; xs:language is the XML Schema pattern;
//   - whitespace: a value is normalised before its lexical check only when
//     its type has a pattern or enumeration, for union members, and for
//     attributes with a default or fixed value;
//   - regular expressions: \w, \d, \p{..} use Unicode 4.0.1 as libxml2
//     tabulates it (CJK ideographs are not \p{L}, U+E000 is private use but
//     U+E001 is not); a '-' inside a class that is neither first nor last
//     is ignored; \P{X} inside a class means \p{X};
//   - errors: an unexpected child ends the validation of its parent's
//     content (its later children, its text, its missing-children check);
//     attribute errors come as libxml2 orders them (values, then
//     attributes not allowed, then missing ones); a CDATA section, even an
//     empty one, in element-only content is an error; line numbers count
//     line feeds only (a lone carriage return does not start a line), and
//     beyond line 65535 they are borrowed from a neighbouring node;
//   - a name that both an element particle and a wildcard match goes to
//     the element particle (libxml2 accepts such schemas);
//   - IDs are unique among attributes only; IDREFs are not resolved.
//
// # Known differences from libxml2
//
//   - libxml2's regular expression engine does not backtrack across
//     transitions its determinism heuristic wrongly judges disjoint (a
//     negated class against a class it overlaps, a block against a
//     category), so it rejects some values that match, such as "b$" for
//     [a-z]*[^a][^a]. This package matches as XML Schema says.
//   - Beyond line 65535 libxml2 reports, for an element, a line borrowed
//     from its first child or a sibling (its own line does not fit in 16
//     bits); Error.Line does the same (Pos keeps the true position), except
//     when that child is a text node that starts with a character or entity
//     reference, whose line libxml2 takes from the reference.
//   - Values of xs:ENTITY and xs:ENTITIES are always invalid (libxml2
//     accepts unparsed entities declared in the document's DTD), and
//     xs:NOTATION values are only checked as QNames.
//   - The messages are this package's own.
//
// # What is refused
//
// These are refused with a *CompileError (Unsupported set) rather than
// ignored: xs:redefine, xs:override and the other XML Schema 1.1
// constructs (assertions, alternatives, open content), identity
// constraints (unique, key, keyref), a complexContent extension of
// xs:anyType, patterns with an unknown block name (libxml2 compiles them
// but then fails every value with an internal error) or a repetition count
// above 1000, xs:all groups with more than 64 elements, and content models
// that expand to more than 100,000 positions or states.
package xsd
