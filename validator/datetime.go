package validator

import (
	"fmt"
	"strings"
	"time"
)

// Datetime is a parsed W3C Datetime (W3C Note NOTE-datetime-19980827), the
// format ResourceSync prescribes for every time attribute and <lastmod>.
type Datetime struct {
	// Time is the instant the value denotes. A value without time of day
	// denotes the start of that day (of that month, of that year) in UTC.
	Time time.Time
	// HasTime is true for the forms with a time of day ("YYYY-MM-DDThh:mm…").
	HasTime bool
	// Seconds is true when seconds are given ("…:ss" or "…:ss.s").
	Seconds bool
	// UTC is true when the time zone designator is "Z".
	UTC bool
}

// Complete reports whether the value has the form the specification
// recommends: a complete date and time in UTC, YYYY-MM-DDThh:mm:ss[.s]Z.
func (d Datetime) Complete() bool { return d.HasTime && d.Seconds && d.UTC }

// ParseDatetime parses a W3C Datetime. Surrounding XML whitespace is
// ignored. The error says what is wrong in words a person understands,
// including the common case of a missing time zone designator, which W3C
// Datetime requires whenever a time of day is given.
func ParseDatetime(s string) (Datetime, error) {
	s = strings.Trim(s, " \t\r\n")
	var d Datetime
	p := dtParser{s: s}
	if s == "" {
		return d, fmt.Errorf("the value is empty; expected a W3C Datetime such as 2013-01-03T09:00:00Z")
	}
	year, ok := p.digits(4)
	if !ok {
		return d, fmt.Errorf("%q is not a W3C Datetime: it must start with a four-digit year", s)
	}
	month, day := 1, 1
	if p.done() {
		d.Time = time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
		return d, nil
	}
	if !p.lit('-') {
		return d, errBadDatetime(s)
	}
	if month, ok = p.digits(2); !ok || month < 1 || month > 12 {
		return d, fmt.Errorf("%q is not a W3C Datetime: the month must be 01 to 12", s)
	}
	if p.done() {
		d.Time = time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC)
		return d, nil
	}
	if !p.lit('-') {
		return d, errBadDatetime(s)
	}
	if day, ok = p.digits(2); !ok {
		return d, fmt.Errorf("%q is not a W3C Datetime: the day must be two digits, 01 to %02d", s, daysIn(year, month))
	} else if day < 1 || day > daysIn(year, month) {
		return d, fmt.Errorf("%q is not a W3C Datetime: %04d-%02d has no day %02d", s, year, month, day)
	}
	if p.done() {
		d.Time = time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
		return d, nil
	}
	if !p.lit('T') {
		if p.peek() == ' ' {
			return d, fmt.Errorf("%q is not a W3C Datetime: date and time must be separated by \"T\", not a space", s)
		}
		return d, errBadDatetime(s)
	}
	d.HasTime = true
	hour, ok1 := p.digits(2)
	colon := p.lit(':')
	minute, ok2 := p.digits(2)
	if !ok1 || !colon || !ok2 {
		return d, fmt.Errorf("%q is not a W3C Datetime: the time must be hh:mm, hh:mm:ss or hh:mm:ss.s", s)
	}
	if hour > 23 || minute > 59 {
		return d, fmt.Errorf("%q is not a W3C Datetime: hours must be 00-23 and minutes 00-59", s)
	}
	sec, nsec := 0, 0
	if p.lit(':') {
		d.Seconds = true
		if sec, ok = p.digits(2); !ok || sec > 59 {
			return d, fmt.Errorf("%q is not a W3C Datetime: seconds must be 00-59", s)
		}
		if p.lit('.') {
			start := p.i
			for !p.done() && p.peek() >= '0' && p.peek() <= '9' {
				p.i++
			}
			frac := s[start:p.i]
			if frac == "" {
				return d, fmt.Errorf("%q is not a W3C Datetime: a decimal point must be followed by digits", s)
			}
			for i := 0; i < 9; i++ {
				nsec *= 10
				if i < len(frac) {
					nsec += int(frac[i] - '0')
				}
			}
		}
	}
	offset := 0
	switch {
	case p.done():
		return d, fmt.Errorf("%q has no time zone designator: W3C Datetime requires one after a time of day (\"Z\" for UTC, or +hh:mm / -hh:mm)", s)
	case p.lit('Z'):
		d.UTC = true
	case p.peek() == '+' || p.peek() == '-':
		sign := 1
		if p.peek() == '-' {
			sign = -1
		}
		p.i++
		tzh, ok1 := p.digits(2)
		colon := p.lit(':')
		tzm, ok2 := p.digits(2)
		if !ok1 || !colon || !ok2 || tzh > 23 || tzm > 59 {
			return d, fmt.Errorf("%q is not a W3C Datetime: the time zone designator must be Z, +hh:mm or -hh:mm", s)
		}
		offset = sign * (tzh*3600 + tzm*60)
	default:
		return d, fmt.Errorf("%q is not a W3C Datetime: unexpected %q after the time", s, s[p.i:])
	}
	if !p.done() {
		return d, fmt.Errorf("%q is not a W3C Datetime: unexpected %q at the end", s, s[p.i:])
	}
	loc := time.UTC
	if offset != 0 {
		loc = time.FixedZone("", offset)
	}
	d.Time = time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc).UTC()
	return d, nil
}

func errBadDatetime(s string) error {
	return fmt.Errorf("%q is not a W3C Datetime: expected YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss[.s]]TZD, preferably YYYY-MM-DDThh:mm:ssZ", s)
}

func daysIn(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// dtParser is a cursor over a datetime string.
type dtParser struct {
	s string
	i int
}

func (p *dtParser) done() bool { return p.i >= len(p.s) }

func (p *dtParser) peek() byte {
	if p.done() {
		return 0
	}
	return p.s[p.i]
}

func (p *dtParser) lit(c byte) bool {
	if p.peek() == c && !p.done() {
		p.i++
		return true
	}
	return false
}

// digits reads exactly n ASCII digits.
func (p *dtParser) digits(n int) (int, bool) {
	if p.i+n > len(p.s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(p.s[p.i : p.i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	p.i += n
	return v, true
}
