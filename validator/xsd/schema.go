package xsd

import (
	"io"
	"strconv"

	"github.com/rscheck/rscheck/validator/xmlscan"
)

// Schema is a compiled set of schema documents. It is immutable and safe
// for concurrent use; each document is validated by its own Validator.
type Schema struct {
	elements   map[qname]*elementDecl
	attributes map[qname]*attributeDecl
	types      map[qname]*typeDef
	anyType    *typeDef
}

// qname is an expanded name.
type qname struct{ ns, local string }

func (q qname) String() string {
	if q.ns == "" {
		return q.local
	}
	return "{" + q.ns + "}" + q.local
}

func (q qname) name() xmlscan.Name { return xmlscan.Name{Space: q.ns, Local: q.local} }

// where locates a schema component for messages: the schema document's
// base name and the line of its declaration.
type where struct {
	doc  string
	line int
}

// derivation methods, as a set (block, final).
type derivSet uint8

const (
	derivExtension derivSet = 1 << iota
	derivRestriction
	derivSubstitution
	derivList
	derivUnion
)

// contentKind is a complex type's content type.
type contentKind uint8

const (
	contentEmpty contentKind = iota
	contentSimple
	contentElements
	contentMixed
)

// typeDef is a type definition: simple (st set) or complex.
type typeDef struct {
	name  qname // zero for an anonymous type
	where where
	desc  string // how messages name this component

	// st is set for a simple type definition, and for a complex type with
	// simple content it is the content's simple type.
	st     *simpleType
	simple bool // a simple type definition (not a complex type)

	base   *typeDef // base type definition (nil for anyType)
	method derivSet // derivExtension or derivRestriction (complex types)

	content  contentKind
	model    *automaton      // contentElements, contentMixed
	attrs    []*attributeUse // declared attributes, in declaration order
	attrMap  map[qname]*attributeUse
	wildcard *wildcard // attribute wildcard
	abstract bool
	block    derivSet
	final    derivSet
	urType   bool // xs:anyType: any attributes and content, laxly
	hasID    bool // some attribute is of type ID (uniqueness tracking)
}

// elementDecl is an element declaration.
type elementDecl struct {
	name     qname
	where    where
	desc     string
	typ      *typeDef
	nillable bool
	abstract bool
	global   bool
	block    derivSet
	valueConstraint
	// Substitution group head and the members that can substitute for this
	// element (transitively), computed at compile time.
	substHead *elementDecl
	substs    []*elementDecl
}

// attributeDecl is an attribute declaration.
type attributeDecl struct {
	name   qname
	where  where
	desc   string
	typ    *simpleType
	global bool
	valueConstraint
}

// attributeUse is an attribute use in a complex type.
type attributeUse struct {
	decl     *attributeDecl
	required bool
	// A value constraint on the use overrides the declaration's.
	valueConstraint
}

// valueConstraint is a default or fixed value of a declaration or use.
type valueConstraint struct {
	hasDefault, hasFixed bool
	constraint           string // the value as written
	fixedValue           value  // parsed with the (simple) type
}

func (u *attributeUse) hasConstraint() bool {
	return u.hasDefault || u.hasFixed || u.decl.hasDefault || u.decl.hasFixed
}

// process is a wildcard's processContents.
type process uint8

const (
	processStrict process = iota
	processLax
	processSkip
)

// wildcard is an element or attribute wildcard.
type wildcard struct {
	any     bool            // ##any
	not     bool            // ##other: any namespace except notNS, and not absent
	notNS   string          // the excluded namespace for ##other
	set     map[string]bool // an explicit list ("" is ##local)
	list    []string        // the same list, in order, for messages
	process process
	desc    string // how messages name the component
}

// allows reports whether an element or attribute in namespace ns matches.
func (w *wildcard) allows(ns string) bool {
	switch {
	case w.any:
		return true
	case w.not:
		return ns != "" && ns != w.notNS
	}
	return w.set[ns]
}

// expectation renders the wildcard for messages.
func (w *wildcard) expectation() Expected {
	switch {
	case w.any:
		return Expected{Wildcard: "##any"}
	case w.not:
		return Expected{Wildcard: "##other:" + w.notNS}
	}
	s := ""
	for i, ns := range w.list {
		if i > 0 {
			s += " "
		}
		if ns == "" {
			ns = "##local"
		}
		s += ns
	}
	return Expected{Wildcard: s}
}

// Validate reads an XML document from r and validates it. It returns the
// validation errors in document order; err is set only for a
// well-formedness or I/O error (a *xmlscan.SyntaxError or the reader's
// error), in which case the document has no verdict and the validation
// errors found before the error are returned too.
func (s *Schema) Validate(r io.Reader) ([]*Error, error) {
	src := NewSourceTracker(r)
	sc := xmlscan.NewScanner(src)
	var errs []*Error
	v := s.NewValidator(sc, func(e *Error) { errs = append(errs, e) })
	v.SetSourceTracker(src)
	for {
		t, err := sc.Next()
		if err == io.EOF {
			v.Close()
			return errs, nil
		}
		if err != nil {
			v.Close()
			return errs, err
		}
		v.Token(t)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
