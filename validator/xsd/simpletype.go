package xsd

import (
	"math"
	"strings"
	"unicode/utf8"
)

type variety uint8

const (
	atomic variety = iota
	list
	union
)

// simpleType is a simple type definition, built-in or user-defined.
type simpleType struct {
	name  qname
	where where
	desc  string // how messages name it: "xs:dateTime", "{ns}contentType"
	// label names the type in messages: "xs:dateTime", "tLoc (xs:anyURI)".
	label   string
	variety variety
	// builtin is, for an atomic type, the built-in type whose lexical
	// rules apply (the nearest built-in ancestor).
	builtin builtin
	base    *simpleType
	item    *simpleType   // list
	members []*simpleType // union
	ws      whitespace
	final   derivSet
	// normValue is libxml2's XML_SCHEMAS_TYPE_NORMVALUENEEDED: the type or
	// an ancestor has a pattern or enumeration facet, so values are
	// whitespace-normalised before the built-in lexical check.
	normValue bool
	facets    *facetSet // nil without facets
	// memo marks types whose checks cost enough (patterns) to be worth
	// caching per validator: their values (media types, enumerated
	// tokens) repeat, unlike dates or URLs.
	memo bool
	// idLike is set when validating an attribute value of this type can
	// register an ID (xs:ID, or a list or union containing it).
	idLike bool
}

// facetSet holds the effective constraining facets of a type: for each
// kind the most derived one (libxml2 inherits facets that way), the
// enumeration of the nearest type that has one, and the patterns of every
// derivation step.
type facetSet struct {
	length, minLength, maxLength int // -1 when absent
	totalDigits, fractionDigits  int // -1 when absent
	minIncl, maxIncl             *bound
	minExcl, maxExcl             *bound
	enum                         []value
	enumLits                     []string
	hasEnum                      bool
	patterns                     [][]*pattern // by derivation step, most derived first
}

type bound struct {
	v   value
	lit string
}

func newFacetSet() *facetSet {
	return &facetSet{length: -1, minLength: -1, maxLength: -1, totalDigits: -1, fractionDigits: -1}
}

// valueErr describes why a value is invalid.
type valueErr struct {
	typ        *simpleType // the type whose constraint failed
	facet      string      // "" for a lexical failure
	facetValue string
	detail     string
}

// validate checks s against the type. normalize asks for whitespace
// normalisation first (libxml2 does so for attributes with a value
// constraint, and for union members); isNorm says s is already
// normalised. The value is returned for fixed-value comparisons.
func (t *simpleType) validate(s string, normalize, isNorm bool, ctx *valCtx) (value, []valueErr) {
	var v value
	errs := t.check(s, normalize, isNorm, false, ctx, &v)
	return v, errs
}

// errQuiet is the result of a quiet check that failed: union members are
// tried without building their error reports (libxml2 fires no errors
// for them either), which would allocate for nothing.
var errQuiet = []valueErr{{detail: "quiet"}}

// check is validate writing the value into *v, which the hot path keeps
// on its stack (a value is large).
func (t *simpleType) check(s string, normalize, isNorm, quiet bool, ctx *valCtx, v *value) []valueErr {
	switch t.variety {
	case list:
		return t.validateList(s, normalize, isNorm, ctx, v)
	case union:
		return t.validateUnion(s, normalize, isNorm, ctx, v)
	}
	if !isNorm && (normalize || t.normValue) {
		s = normalizeWS(s, t.ws)
	}
	ok, detail := parseBuiltin(t.builtin, s, ctx, v)
	if !ok {
		if quiet {
			return errQuiet
		}
		return []valueErr{{typ: t, detail: detail}}
	}
	if t.builtin == bID && ctx != nil && ctx.inAttribute {
		if !ctx.addID(trimBlanks(s)) {
			return []valueErr{{typ: t, detail: "the ID " + quoteValue(trimBlanks(s)) + " is already used in this document"}}
		}
	}
	if t.facets == nil {
		return nil
	}
	return t.checkFacets(s, v, -1)
}

func (t *simpleType) validateList(s string, normalize, isNorm bool, ctx *valCtx, v *value) []valueErr {
	if !isNorm && (normalize || t.normValue) {
		s = collapse(s)
	}
	n := 0
	rest := s
	var item value
	for {
		rest = strings.TrimLeft(rest, " \t\n\r")
		if rest == "" {
			break
		}
		end := strings.IndexAny(rest, " \t\n\r")
		if end < 0 {
			end = len(rest)
		}
		n++
		if errs := t.item.check(rest[:end], false, true, false, ctx, &item); errs != nil {
			// libxml2 reports the item, then the list.
			return append(errs, valueErr{typ: t})
		}
		rest = rest[end:]
	}
	*v = value{b: bNone, s: s, n: n}
	if t.facets == nil {
		return nil
	}
	if errs := t.checkFacets(s, v, n); errs != nil {
		return append(errs, valueErr{typ: t})
	}
	return nil
}

func (t *simpleType) validateUnion(s string, normalize, isNorm bool, ctx *valCtx, v *value) []valueErr {
	// Members are tried silently, each normalising the value its own way;
	// the first that accepts it decides. A value without whitespace to
	// normalise is the same for all.
	clean := !hasWhitespace(s)
	for _, m := range t.members {
		if errs := m.check(s, !clean, clean, true, ctx, v); errs != nil {
			continue
		}
		if t.facets == nil {
			return nil
		}
		if !isNorm {
			s = normalizeWS(s, m.effectiveWS())
		}
		return t.checkFacets(s, v, -1)
	}
	return []valueErr{{typ: t}}
}

func hasWhitespace(s string) bool {
	i := 0
	for i+8 <= len(s) && !hasBlankOrLess(load64(s, i)) {
		i += 8
	}
	for ; i < len(s); i++ {
		if isBlank(s[i]) {
			return true
		}
	}
	return false
}

// effectiveWS is the whitespace handling libxml2 applies for a type when
// normalising: the type's own for atomic types, collapse for lists, none
// for unions.
func (t *simpleType) effectiveWS() whitespace {
	switch t.variety {
	case list:
		return wsCollapse
	case union:
		return wsPreserve
	}
	return t.ws
}

// checkFacets checks the constraining facets. items is the number of list
// items for a list type, -1 otherwise.
func (t *simpleType) checkFacets(s string, v *value, items int) []valueErr {
	f := t.facets
	var errs []valueErr
	if f.length >= 0 || f.minLength >= 0 || f.maxLength >= 0 {
		n, applies := t.length(s, v, items)
		if applies {
			errs = t.checkLength(errs, n, items)
		}
	}
	if b := f.minIncl; b != nil {
		if c := compareValues(*v, b.v); c != 0 && c != 1 {
			errs = append(errs, t.facetErr("minInclusive", b.lit, ""))
		}
	}
	if b := f.maxIncl; b != nil {
		if c := compareValues(*v, b.v); c != 0 && c != -1 {
			errs = append(errs, t.facetErr("maxInclusive", b.lit, ""))
		}
	}
	if b := f.minExcl; b != nil && compareValues(*v, b.v) != 1 {
		errs = append(errs, t.facetErr("minExclusive", b.lit, ""))
	}
	if b := f.maxExcl; b != nil && compareValues(*v, b.v) != -1 {
		errs = append(errs, t.facetErr("maxExclusive", b.lit, ""))
	}
	if f.totalDigits >= 0 && v.d.total > f.totalDigits {
		errs = append(errs, t.facetErr("totalDigits", itoa(f.totalDigits), ""))
	}
	if f.fractionDigits >= 0 && v.d.frac > f.fractionDigits {
		errs = append(errs, t.facetErr("fractionDigits", itoa(f.fractionDigits), ""))
	}
	if f.hasEnum {
		found := false
		for _, e := range f.enum {
			if t.enumEqual(s, *v, e) {
				found = true
				break
			}
		}
		if !found {
			errs = append(errs, t.facetErr("enumeration", strings.Join(f.enumLits, ", "), ""))
		}
	}
	for _, step := range f.patterns {
		matched := false
		for _, p := range step {
			if p.match(s) {
				matched = true
				break
			}
		}
		if !matched {
			srcs := make([]string, len(step))
			for i, p := range step {
				srcs[i] = p.src
			}
			errs = append(errs, t.facetErr("pattern", strings.Join(srcs, " | "), ""))
		}
	}
	return errs
}

func (t *simpleType) facetErr(facet, fv, detail string) valueErr {
	return valueErr{typ: t, facet: facet, facetValue: fv, detail: detail}
}

func (t *simpleType) checkLength(errs []valueErr, n, items int) []valueErr {
	f := t.facets
	unit := "characters"
	switch {
	case items >= 0:
		unit = "items"
	case t.builtin == bHexBinary || t.builtin == bBase64Binary:
		unit = "octets"
	}
	if f.length >= 0 && n != f.length {
		errs = append(errs, t.facetErr("length", itoa(f.length), unit+", not "+itoa(n)))
	}
	if f.minLength >= 0 && n < f.minLength {
		errs = append(errs, t.facetErr("minLength", itoa(f.minLength), unit+", not "+itoa(n)))
	}
	if f.maxLength >= 0 && n > f.maxLength {
		errs = append(errs, t.facetErr("maxLength", itoa(f.maxLength), unit+", not "+itoa(n)))
	}
	return errs
}

// length computes the value's length as libxml2's
// xmlSchemaValidateLengthFacetWhtsp does; applies is false for QName and
// NOTATION, whose length facets libxml2 ignores.
func (t *simpleType) length(s string, v *value, items int) (n int, applies bool) {
	if items >= 0 {
		return items, true
	}
	switch t.builtin {
	case bString, bNormalizedString, bAnySimpleType:
		if t.ws == wsCollapse {
			return normLen(s), true
		}
		return utf8.RuneCountInString(s), true
	case bHexBinary, bBase64Binary:
		return v.n, true
	case bQName, bNOTATION:
		return 0, false
	}
	return normLen(s), true
}

// enumEqual compares the value with an enumeration value: strings after
// normalisation, other types in their value space.
func (t *simpleType) enumEqual(s string, v, e value) bool {
	if t.variety == list {
		return s == e.s
	}
	if v.b.stringFamily() || v.b == bAnySimpleType || v.b == bAnyType {
		return e.b.stringFamily() && v.s == e.s
	}
	return compareValues(v, e) == 0
}

// compareValues compares two values of the same primitive type: -1, 0,
// 1, 2 when indeterminate or incomparable.
func compareValues(x, y value) int {
	px, py := x.b.primitive(), y.b.primitive()
	if px != py {
		return 2
	}
	switch px {
	case bDecimal:
		return compareDecimals(x.d, y.d)
	case bFloat, bDouble:
		if math.IsNaN(x.f) || math.IsNaN(y.f) {
			if math.IsNaN(x.f) && math.IsNaN(y.f) {
				return 0
			}
			return 2
		}
		return cmpFloat(x.f, y.f)
	case bDuration:
		return compareDurations(x.dur, y.dur)
	case bDateTime, bDate, bTime, bGYear, bGYearMonth, bGMonth, bGMonthDay, bGDay:
		return compareDateTimes(x.dt, y.dt)
	case bBoolean:
		if x.t == y.t {
			return 0
		}
		return 2
	case bQName, bNOTATION:
		if x.s == y.s && x.ns == y.ns {
			return 0
		}
		return 2
	}
	if x.s == y.s {
		return 0
	}
	return 2
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
