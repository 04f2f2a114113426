package xsd

// builtin identifies a built-in datatype of XML Schema Part 2. The lexical
// rules of each are libxml2's (xmlschemastypes.c), which differ from the
// specification in places; see the functions in datatypes.go.
type builtin uint8

const (
	bNone builtin = iota
	bAnyType
	bAnySimpleType
	bString
	bNormalizedString
	bToken
	bLanguage
	bName
	bNCName
	bNMTOKEN
	bNMTOKENS
	bID
	bIDREF
	bIDREFS
	bENTITY
	bENTITIES
	bQName
	bNOTATION
	bAnyURI
	bBoolean
	bDecimal
	bInteger
	bNonPositiveInteger
	bNegativeInteger
	bNonNegativeInteger
	bPositiveInteger
	bLong
	bInt
	bShort
	bByte
	bUnsignedLong
	bUnsignedInt
	bUnsignedShort
	bUnsignedByte
	bFloat
	bDouble
	bDuration
	bDateTime
	bDate
	bTime
	bGYear
	bGYearMonth
	bGMonth
	bGMonthDay
	bGDay
	bHexBinary
	bBase64Binary
	numBuiltins
)

// builtinInfo describes a built-in type: its name, its base in the
// built-in hierarchy, and for the list types their item type.
var builtinInfo = [numBuiltins]struct {
	name string
	base builtin
	item builtin
}{
	bAnyType:            {"anyType", bNone, 0},
	bAnySimpleType:      {"anySimpleType", bAnyType, 0},
	bString:             {"string", bAnySimpleType, 0},
	bNormalizedString:   {"normalizedString", bString, 0},
	bToken:              {"token", bNormalizedString, 0},
	bLanguage:           {"language", bToken, 0},
	bName:               {"Name", bToken, 0},
	bNCName:             {"NCName", bName, 0},
	bNMTOKEN:            {"NMTOKEN", bToken, 0},
	bNMTOKENS:           {"NMTOKENS", bAnySimpleType, bNMTOKEN},
	bID:                 {"ID", bNCName, 0},
	bIDREF:              {"IDREF", bNCName, 0},
	bIDREFS:             {"IDREFS", bAnySimpleType, bIDREF},
	bENTITY:             {"ENTITY", bNCName, 0},
	bENTITIES:           {"ENTITIES", bAnySimpleType, bENTITY},
	bQName:              {"QName", bAnySimpleType, 0},
	bNOTATION:           {"NOTATION", bAnySimpleType, 0},
	bAnyURI:             {"anyURI", bAnySimpleType, 0},
	bBoolean:            {"boolean", bAnySimpleType, 0},
	bDecimal:            {"decimal", bAnySimpleType, 0},
	bInteger:            {"integer", bDecimal, 0},
	bNonPositiveInteger: {"nonPositiveInteger", bInteger, 0},
	bNegativeInteger:    {"negativeInteger", bNonPositiveInteger, 0},
	bNonNegativeInteger: {"nonNegativeInteger", bInteger, 0},
	bPositiveInteger:    {"positiveInteger", bNonNegativeInteger, 0},
	bLong:               {"long", bInteger, 0},
	bInt:                {"int", bLong, 0},
	bShort:              {"short", bInt, 0},
	bByte:               {"byte", bShort, 0},
	bUnsignedLong:       {"unsignedLong", bNonNegativeInteger, 0},
	bUnsignedInt:        {"unsignedInt", bUnsignedLong, 0},
	bUnsignedShort:      {"unsignedShort", bUnsignedInt, 0},
	bUnsignedByte:       {"unsignedByte", bUnsignedShort, 0},
	bFloat:              {"float", bAnySimpleType, 0},
	bDouble:             {"double", bAnySimpleType, 0},
	bDuration:           {"duration", bAnySimpleType, 0},
	bDateTime:           {"dateTime", bAnySimpleType, 0},
	bDate:               {"date", bAnySimpleType, 0},
	bTime:               {"time", bAnySimpleType, 0},
	bGYear:              {"gYear", bAnySimpleType, 0},
	bGYearMonth:         {"gYearMonth", bAnySimpleType, 0},
	bGMonth:             {"gMonth", bAnySimpleType, 0},
	bGMonthDay:          {"gMonthDay", bAnySimpleType, 0},
	bGDay:               {"gDay", bAnySimpleType, 0},
	bHexBinary:          {"hexBinary", bAnySimpleType, 0},
	bBase64Binary:       {"base64Binary", bAnySimpleType, 0},
}

// primitive returns the primitive type b derives from (itself for a
// primitive), which decides the value space and the applicable facets.
func (b builtin) primitive() builtin {
	for {
		base := builtinInfo[b].base
		if base == bAnySimpleType || base == bAnyType || base == bNone {
			return b
		}
		b = base
	}
}

// stringFamily reports types whose primitive is string (whitespace facet
// and length counted in characters).
func (b builtin) stringFamily() bool { return b.primitive() == bString }

// decimalFamily reports decimal and the integer types.
func (b builtin) decimalFamily() bool { return b.primitive() == bDecimal }

// ordered reports the primitives with an order (min/max facets apply).
func (b builtin) ordered() bool {
	switch b.primitive() {
	case bDecimal, bFloat, bDouble, bDuration, bDateTime, bDate, bTime,
		bGYear, bGYearMonth, bGMonth, bGMonthDay, bGDay:
		return true
	}
	return false
}

// whitespace values of the whiteSpace facet.
type whitespace uint8

const (
	wsPreserve whitespace = iota
	wsReplace
	wsCollapse
)

func (b builtin) whitespace() whitespace {
	switch b {
	case bString, bAnySimpleType, bAnyType:
		return wsPreserve
	case bNormalizedString:
		return wsReplace
	}
	return wsCollapse
}
