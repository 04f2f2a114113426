package xsd

import (
	"math"
	"strconv"
	"strings"
)

// decimal is a value of xs:decimal or of an integer type: exact, as
// digit strings.
type decimal struct {
	neg   bool
	ip    string // integer digits without leading zeros ("" for zero)
	fp    string // fraction digits without trailing zeros
	total int    // libxml2's count of significant digits (totalDigits)
	frac  int    // libxml2's count of fraction digits (fractionDigits)
}

func (d decimal) isZero() bool { return d.ip == "" && d.fp == "" }

// compareDecimals returns -1, 0 or 1.
func compareDecimals(x, y decimal) int {
	xs, ys := 1, 1
	if x.neg && !x.isZero() {
		xs = -1
	}
	if y.neg && !y.isZero() {
		ys = -1
	}
	if x.isZero() {
		xs = 0
	}
	if y.isZero() {
		ys = 0
	}
	if xs != ys {
		if xs < ys {
			return -1
		}
		return 1
	}
	if xs == 0 {
		return 0
	}
	c := 0
	switch {
	case len(x.ip) != len(y.ip):
		c = cmpInt(len(x.ip), len(y.ip))
	case x.ip != y.ip:
		c = strings.Compare(x.ip, y.ip)
	default:
		c = strings.Compare(x.fp, y.fp)
	}
	return c * xs
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// parseDecimal is libxml2's xs:decimal: optional blanks, sign, digits with
// an optional point (".5", "5." and "00." are accepted, "." is not), at
// most 24 digits after leading zeros, optional blanks.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	if i == len(s) {
		return d, false
	}
	switch s[i] {
	case '-':
		d.neg = true
		i++
	case '+':
		i++
	}
	if i == len(s) {
		return d, false
	}
	leadingZeros := false
	for i < len(s) && s[i] == '0' {
		i++
		leadingZeros = true
	}
	n := 0      // digits kept (libxml2's len)
	integ := -1 // digits before the point, -1 without a point
	var digits []byte
	for n < 24 && i < len(s) {
		if isDigit(s[i]) {
			digits = append(digits, s[i])
			i++
			n++
			continue
		}
		if s[i] == '.' {
			i++
			integ = n
			for n < 24 && i < len(s) && isDigit(s[i]) {
				digits = append(digits, s[i])
				i++
				n++
			}
			if n == 0 && !leadingZeros {
				return d, false
			}
		}
		break
	}
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	if i != len(s) {
		return d, false
	}
	if integ < 0 {
		integ = n
	} else {
		for n > integ && digits[n-1] == '0' {
			n--
		}
	}
	digits = digits[:n]
	d.ip = strings.TrimLeft(string(digits[:integ]), "0")
	d.fp = strings.TrimRight(string(digits[integ:]), "0")
	if n == 0 {
		d.total = 1
	} else {
		d.total = n
		d.frac = n - integ
	}
	return d, true
}

// integer bounds of the bounded integer types, as digit strings.
var intBounds = map[builtin][2]string{
	bLong:          {"9223372036854775808", "9223372036854775807"},
	bInt:           {"2147483648", "2147483647"},
	bShort:         {"32768", "32767"},
	bByte:          {"128", "127"},
	bUnsignedLong:  {"0", "18446744073709551615"},
	bUnsignedInt:   {"0", "4294967295"},
	bUnsignedShort: {"0", "65535"},
	bUnsignedByte:  {"0", "255"},
}

// parseInteger is libxml2's lexical check of xs:integer and the types
// derived from it. xs:integer and its unbounded subtypes allow leading and
// trailing blanks; the bounded types (long, int, ..., unsignedByte) do
// not, and the unsigned ones take no sign at all. At most 24 digits after
// leading zeros.
func parseInteger(s string, b builtin) (decimal, bool) {
	var d decimal
	i, end := 0, len(s)
	unbounded := b == bInteger || b == bNonPositiveInteger || b == bNegativeInteger ||
		b == bNonNegativeInteger || b == bPositiveInteger
	if unbounded {
		for i < end && isBlank(s[i]) {
			i++
		}
		for end > i && isBlank(s[end-1]) {
			end--
		}
	}
	unsigned := b == bUnsignedLong || b == bUnsignedInt || b == bUnsignedShort || b == bUnsignedByte
	if !unsigned && i < end {
		switch s[i] {
		case '-':
			d.neg = true
			i++
		case '+':
			i++
		}
	}
	if i >= end || !isDigit(s[i]) {
		return d, false
	}
	for i < end && s[i] == '0' {
		i++
	}
	j := i
	for j < end && isDigit(s[j]) {
		j++
	}
	if j != end || j-i > 24 {
		return d, false
	}
	d.ip = s[i:j]
	d.total = len(d.ip)
	if d.total == 0 && unbounded {
		d.total = 1
	}
	zero := d.ip == ""
	switch b {
	case bNonPositiveInteger:
		if !d.neg && !zero {
			return d, false
		}
	case bPositiveInteger:
		if d.neg || zero {
			return d, false
		}
	case bNegativeInteger:
		if !d.neg || zero {
			return d, false
		}
	case bNonNegativeInteger:
		if d.neg && !zero {
			return d, false
		}
	case bInteger:
		// Unbounded: no look in intBounds (a map lookup costs).
	default:
		if bounds, ok := intBounds[b]; ok {
			limit := bounds[1]
			if d.neg {
				limit = bounds[0]
			}
			if len(d.ip) > len(limit) || len(d.ip) == len(limit) && d.ip > limit {
				return d, false
			}
		}
	}
	return d, true
}

// parseFloat is libxml2's lexical check of xs:float and xs:double, with
// the value. libxml2 accepts an exponent marker without digits ("1e",
// "1e+") and reads the value with sscanf, which stops before it.
func parseFloat(s string, bits int) (float64, bool) {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	if strings.HasPrefix(s[i:], "NaN") {
		if i+3 != len(s) {
			return 0, false
		}
		return math.NaN(), true
	}
	neg := false
	if at(s, i) == '-' {
		neg = true
		i++
	}
	if strings.HasPrefix(s[i:], "INF") {
		if i+3 != len(s) {
			return 0, false
		}
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if !neg && at(s, i) == '+' {
		i++
	}
	if c := at(s, i); c == 0 || c == '+' || c == '-' {
		return 0, false
	}
	start := i
	before, after := 0, 0
	for isDigit(at(s, i)) {
		i++
		before++
	}
	if at(s, i) == '.' {
		i++
		for isDigit(at(s, i)) {
			i++
			after++
		}
	}
	if before == 0 && after == 0 {
		return 0, false
	}
	expEnd := i
	if c := at(s, i); c == 'e' || c == 'E' {
		i++
		if c := at(s, i); c == '-' || c == '+' {
			i++
		}
		digits := i
		for isDigit(at(s, i)) {
			i++
		}
		if i > digits {
			expEnd = i
		}
	}
	num := s[start:expEnd]
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	if i != len(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(num, bits)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	if neg {
		f = -f
	}
	return f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
