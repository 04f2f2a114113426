package xsd

import "math"

// dateTime is a value of one of the date/time types. Absent fields are
// zero (mon and day are 0 when absent).
type dateTime struct {
	year      int64
	sec       float64
	mon, day  int8
	hour, min int8
	tzo       int16   // timezone offset in minutes
	tz        bool    // a timezone was given
	kind      builtin // the type the lexical form belongs to
}

func isLeap(y int64) bool { return y%4 == 0 && y%100 != 0 || y%400 == 0 }

var daysInMonth = [12]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

func maxDay(y int64, m int) int {
	if m == 2 && isLeap(y) {
		return 29
	}
	return daysInMonth[m-1]
}

// at returns s[i], or 0 past the end, like reading a C string.
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// parse2 parses exactly two digits at s[i:].
func parse2(s string, i int) (int, bool) {
	a, b := at(s, i), at(s, i+1)
	if !isDigit(a) || !isDigit(b) {
		return 0, false
	}
	return int(a-'0')*10 + int(b-'0'), true
}

// parseTimeOfDay is _xmlSchemaParseTime: hh:mm:ss(.s+)?, with 24:00:00
// allowed. It returns the index after the time.
func parseTimeOfDay(s string, i int, dt *dateTime) (int, bool) {
	h, ok := parse2(s, i)
	if !ok {
		return i, false
	}
	i += 2
	if at(s, i) != ':' || h > 24 {
		return i, false
	}
	i++
	dt.hour = int8(h)
	m, ok := parse2(s, i)
	if !ok || m > 59 {
		return i, false
	}
	i += 2
	dt.min = int8(m)
	if at(s, i) != ':' {
		return i, false
	}
	i++
	sec, ok := parse2(s, i)
	if !ok {
		return i, false
	}
	i += 2
	dt.sec = float64(sec)
	if at(s, i) == '.' {
		i++
		if !isDigit(at(s, i)) {
			return i, false
		}
		// The same arithmetic as libxml2's PARSE_FLOAT, so that values
		// such as 59.99999999999999999 round the same way.
		mult := 1.0
		for isDigit(at(s, i)) {
			mult /= 10
			dt.sec += float64(s[i]-'0') * mult
			i++
		}
	}
	if !validTime(dt) {
		return i, false
	}
	return i, true
}

func validTime(dt *dateTime) bool {
	ok := dt.hour <= 23 && dt.min <= 59 && dt.sec >= 0 && dt.sec < 60 ||
		dt.hour == 24 && dt.min == 0 && dt.sec == 0
	return ok && dt.tzo >= -840 && dt.tzo <= 840
}

// parseTZ is _xmlSchemaParseTimeZone: nothing, Z, or ±hh:mm.
func parseTZ(s string, i int, dt *dateTime) (int, bool) {
	switch at(s, i) {
	case 0:
		if i < len(s) { // an embedded NUL is not the end
			return i, false
		}
		dt.tz, dt.tzo = false, 0
		return i, true
	case 'Z':
		dt.tz, dt.tzo = true, 0
		return i + 1, true
	case '+', '-':
		neg := s[i] == '-'
		i++
		h, ok := parse2(s, i)
		if !ok || h > 23 {
			return i, false
		}
		i += 2
		if at(s, i) != ':' {
			return i, false
		}
		i++
		m, ok := parse2(s, i)
		if !ok || m > 59 {
			return i, false
		}
		i += 2
		tzo := h*60 + m
		if neg {
			tzo = -tzo
		}
		if tzo < -840 || tzo > 840 {
			return i, false
		}
		dt.tz, dt.tzo = true, int16(tzo)
		return i, true
	}
	return i, false
}

func isTZChar(c byte) bool { return c == 0 || c == 'Z' || c == '+' || c == '-' }

// parseDateTime is libxml2's xmlSchemaValidateDates with collapse set (as
// the schema validator calls it). It recognises which date/time type the
// lexical form is, and fails unless that is want. Note libxml2's
// whitespace quirks, mirrored here: leading whitespace is skipped for
// time, gDay, gMonth and gMonthDay but not for the types that start with a
// year, and trailing whitespace is accepted only after the timezone of a
// dateTime.
func parseDateTime(s string, want builtin) (dateTime, bool) {
	if len(s) >= 19 && s[10] == 'T' && (want == bDate || want == bDateTime) {
		if dt, decided, ok := fastDateTime(s, want); decided {
			return dt, ok
		}
	}
	return parseDates(s, want)
}

// parseDates is parseDateTime without the fast path.
func parseDates(s string, want builtin) (dateTime, bool) {
	var dt dateTime
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	// Each branch below recognises some types only; a branch that cannot
	// produce the wanted type is cut short (libxml2 would go on and fail
	// the type check at the end: the verdict is the same).
	if at(s, i) == '-' && at(s, i+1) == '-' {
		// gMonthDay, gMonth or gDay
		if want != bGDay && want != bGMonth && want != bGMonthDay {
			return dateTime{}, false
		}
		i += 2
		if at(s, i) == '-' {
			if want == bGMonth {
				return dateTime{}, false
			}
			i++
			d, ok := parse2(s, i)
			if !ok || d < 1 || d > 31 {
				return dateTime{}, false
			}
			dt.day = int8(d)
			i += 2
			if done, ok := returnIfValid(s, &dt, i, bGDay); done {
				return finishDT(dt, want, ok)
			}
			return dateTime{}, false
		}
		m, ok := parse2(s, i)
		if !ok || m < 1 || m > 12 {
			return dateTime{}, false
		}
		dt.mon = int8(m)
		i += 2
		if at(s, i) == '-' {
			d, ok := parse2(s, i+1)
			if ok && d >= 1 && d <= 31 && at(s, i+3) != ':' {
				// Year 0 counts as a leap year here, so --02-29 passes.
				if d <= maxDay(0, m) {
					dt.day = int8(d)
					if done, ok := returnIfValid(s, &dt, i+3, bGMonthDay); done {
						return finishDT(dt, want, ok)
					}
					return dateTime{}, false
				}
			}
		}
		if done, ok := returnIfValid(s, &dt, i, bGMonth); done {
			return finishDT(dt, want, ok)
		}
		return dateTime{}, false
	}
	if want == bTime {
		if j, ok := parseTimeOfDay(s, i, &dt); ok {
			if done, ok := returnIfValid(s, &dt, j, bTime); done {
				return finishDT(dt, want, ok)
			}
		}
		return dateTime{}, false
	}
	// Date types start over from the first character: leading whitespace
	// is not skipped for them (libxml2 resets its cursor here).
	dt = dateTime{}
	i = 0
	j, ok := parseYear(s, i, &dt)
	if !ok {
		return dateTime{}, false
	}
	if done, ok := returnIfValid(s, &dt, j, bGYear); done {
		return finishDT(dt, want, ok)
	}
	if want == bGYear || at(s, j) != '-' {
		return dateTime{}, false
	}
	m, ok := parse2(s, j+1)
	if !ok || m < 1 || m > 12 {
		return dateTime{}, false
	}
	dt.mon = int8(m)
	j += 3
	if done, ok := returnIfValid(s, &dt, j, bGYearMonth); done {
		return finishDT(dt, want, ok)
	}
	if want == bGYearMonth || at(s, j) != '-' {
		return dateTime{}, false
	}
	d, ok := parse2(s, j+1)
	if !ok || d < 1 || d > 31 || d > maxDay(dt.year, m) {
		return dateTime{}, false
	}
	dt.day = int8(d)
	j += 3
	if done, ok := returnIfValid(s, &dt, j, bDate); done {
		return finishDT(dt, want, ok)
	}
	if want == bDate || at(s, j) != 'T' {
		return dateTime{}, false
	}
	j, ok = parseTimeOfDay(s, j+1, &dt)
	if !ok {
		return dateTime{}, false
	}
	j, ok = parseTZ(s, j, &dt)
	for j < len(s) && isBlank(s[j]) {
		j++
	}
	if !ok || j != len(s) || !validTime(&dt) {
		return dateTime{}, false
	}
	dt.kind = bDateTime
	return finishDT(dt, want, true)
}

// returnIfValid is libxml2's RETURN_TYPE_IF_VALID: at j a timezone (or
// nothing) must follow, then the end. done reports that the parse is
// decided; ok that the value is of type t.
func returnIfValid(s string, dt *dateTime, j int, t builtin) (done, ok bool) {
	if !isTZChar(at(s, j)) {
		return false, false
	}
	k, tzok := parseTZ(s, j, dt)
	if !tzok {
		return false, false
	}
	if k != len(s) {
		return true, false
	}
	dt.kind = t
	return true, true
}

func finishDT(dt dateTime, want builtin, ok bool) (dateTime, bool) {
	if !ok || dt.kind != want {
		return dateTime{}, false
	}
	return dt, true
}

// parseYear is _xmlSchemaParseGYear: an optional '-', at least four
// digits, no leading zero beyond four digits, not zero, no overflow.
func parseYear(s string, i int, dt *dateTime) (int, bool) {
	c := at(s, i)
	if !isDigit(c) && c != '-' && c != '+' {
		return i, false
	}
	neg := false
	if c == '-' {
		neg = true
		i++
	}
	first := i
	var y int64
	for isDigit(at(s, i)) {
		d := int64(s[i] - '0')
		if y > math.MaxInt64/10 || y*10 > math.MaxInt64-d {
			return i, false
		}
		y = y*10 + d
		i++
	}
	n := i - first
	if n < 4 || n > 4 && s[first] == '0' {
		return i, false
	}
	if neg {
		y = -y
	}
	if y == 0 {
		return i, false
	}
	dt.year = y
	return i, true
}

// duration is a value of xs:duration: months, days and seconds.
type duration struct {
	mon, day int64
	sec      float64
}

// parseDuration is libxml2's (2.9.14) xmlSchemaValidateDuration with
// collapse set: leading whitespace is skipped, trailing whitespace is not;
// each number must fit a C long; only seconds may have a fraction.
func parseDuration(s string) (duration, bool) {
	var d duration
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	neg := false
	if at(s, i) == '-' {
		neg = true
		i++
	}
	if at(s, i) != 'P' {
		return d, false
	}
	i++
	if i >= len(s) {
		return d, false
	}
	const desig = "YMDHMS"
	seq := 0
	var secs int64
	var secFrac float64
	for i < len(s) {
		if seq >= len(desig) {
			return d, false
		}
		if s[i] == 'T' {
			if seq > 3 {
				return d, false
			}
			i++
			seq = 3
		} else if seq == 3 {
			return d, false
		}
		var num int64
		hasDigits, hasFrac := false, false
		for isDigit(at(s, i)) {
			dg := int64(s[i] - '0')
			if num > math.MaxInt64/10 || num*10 > math.MaxInt64-dg {
				return d, false
			}
			num = num*10 + dg
			hasDigits = true
			i++
		}
		if at(s, i) == '.' {
			i++
			hasFrac = true
			mult := 1.0
			for isDigit(at(s, i)) {
				mult /= 10
				secFrac += float64(s[i]-'0') * mult
				hasDigits = true
				i++
			}
		}
		for at(s, i) != desig[seq] {
			seq++
			if seq == 3 || seq == len(desig) {
				return d, false
			}
		}
		i++
		if !hasDigits || hasFrac && seq != 5 {
			return d, false
		}
		var days int64
		switch seq {
		case 0:
			if num > math.MaxInt64/12 {
				return d, false
			}
			d.mon = num * 12
		case 1:
			if d.mon > math.MaxInt64-num {
				return d, false
			}
			d.mon += num
		case 2:
			d.day = num
		case 3:
			days = num / 24
			secs = (num % 24) * 3600
		case 4:
			days = num / 1440
			secs += (num % 1440) * 60
		case 5:
			days = num / 86400
			secs += num % 86400
		}
		if d.day > math.MaxInt64-days {
			return d, false
		}
		d.day += days
		seq++
	}
	days := secs / 86400
	if d.day > math.MaxInt64-days {
		return d, false
	}
	d.day += days
	d.sec = float64(secs%86400) + secFrac
	if neg {
		d.mon, d.day, d.sec = -d.mon, -d.day, -d.sec
	}
	return d, true
}

// compareDurations is libxml2's xmlSchemaCompareDurations: -1, 0, 1, or 2
// when the order is indeterminate.
func compareDurations(x, y duration) int {
	dayRange := [2][12]int64{
		{0, 28, 59, 89, 120, 150, 181, 212, 242, 273, 303, 334},
		{0, 31, 62, 92, 123, 153, 184, 215, 245, 276, 306, 337},
	}
	mon := x.mon - y.mon
	sec := x.sec - y.sec
	carry := int64(sec / 86400)
	sec -= float64(carry) * 86400
	day := x.day - y.day + carry
	if mon == 0 {
		switch {
		case day == 0 && sec == 0:
			return 0
		case day == 0 && sec < 0, day < 0:
			return -1
		}
		return 1
	}
	invert := 1
	var xmon, xday int64
	if mon > 0 {
		if day >= 0 && sec >= 0 {
			return 1
		}
		xmon, xday = mon, -day
	} else if day <= 0 && sec <= 0 {
		return -1
	} else {
		invert = -1
		xmon, xday = -mon, day
	}
	myear := xmon / 12
	var minday, maxday int64
	if myear != 0 {
		maxday = 365*myear + (myear+3)/4
		minday = maxday - 1
	}
	xmon %= 12
	minday += dayRange[0][xmon]
	maxday += dayRange[1][xmon]
	if maxday == minday && maxday == xday {
		return 0
	}
	if maxday < xday {
		return -invert
	}
	if minday > xday {
		return invert
	}
	return 2
}

// seconds returns dt as seconds since a fixed epoch, normalized to UTC
// when it has a timezone (shift added, in minutes), with absent fields as
// in XSD's "seven-property model" defaults.
func (dt dateTime) seconds(shift int) float64 {
	y := dt.year
	mon := int(dt.mon)
	if mon == 0 {
		mon = 1
	}
	day := int(dt.day)
	if day == 0 {
		day = 1
	}
	// Days from a proleptic epoch; exactness only matters for ordering.
	days := daysFromCivil(y, mon, day)
	s := float64(days)*86400 + float64(dt.hour)*3600 + float64(dt.min)*60 + dt.sec
	s -= float64(int(dt.tzo)+shift) * 60
	return s
}

func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe
}

// compareDateTimes orders two values of the same date/time type as XML
// Schema 1.0 (3.2.7.4) does: -1, 0, 1, or 2 when indeterminate (one has a
// timezone and the other not, and they are within 14 hours).
func compareDateTimes(p, q dateTime) int {
	cmp := func(a, b float64) int {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	if p.tz == q.tz {
		return cmp(p.seconds(0), q.seconds(0))
	}
	if p.tz {
		// p has a timezone, q not: compare with q at +14:00 and -14:00.
		if c := cmp(p.seconds(0), q.seconds(840)); c < 0 {
			return -1
		}
		if c := cmp(p.seconds(0), q.seconds(-840)); c > 0 {
			return 1
		}
		return 2
	}
	switch compareDateTimes(q, p) {
	case -1:
		return 1
	case 1:
		return -1
	}
	return 2
}

// fastDateTime decides the usual lexical forms of big documents at once:
// YYYY-MM-DDThh:mm:ss followed by Z, ±hh:mm or nothing, all in ASCII
// digits. Wanting a date, such a value fails whatever its digits (the
// first member of a date-or-dateTime union); wanting a dateTime, it
// returns what parseDateTime's longer way does. Anything else, and any
// value that is not plainly valid, is left undecided, for that way.
func fastDateTime(s string, want builtin) (dt dateTime, decided, ok bool) {
	d := func(i int) int { return int(s[i]-'0')*10 + int(s[i+1]-'0') }
	_ = s[18]
	if !isDigit(s[0]) || !isDigit(s[1]) || !isDigit(s[2]) || !isDigit(s[3]) || s[4] != '-' ||
		!isDigit(s[5]) || !isDigit(s[6]) || s[7] != '-' || !isDigit(s[8]) || !isDigit(s[9]) ||
		!isDigit(s[11]) || !isDigit(s[12]) || s[13] != ':' || !isDigit(s[14]) || !isDigit(s[15]) ||
		s[16] != ':' || !isDigit(s[17]) || !isDigit(s[18]) {
		return dateTime{}, false, false
	}
	if want == bDate {
		return dateTime{}, true, false
	}
	y, m, day := int64(d(0)*100+d(2)), d(5), d(8)
	h, mi, sec := d(11), d(14), d(17)
	if y == 0 || m < 1 || m > 12 || day < 1 || day > maxDay(y, m) || h > 23 || mi > 59 || sec > 59 {
		return dateTime{}, false, false
	}
	dt = dateTime{year: y, mon: int8(m), day: int8(day), hour: int8(h), min: int8(mi), sec: float64(sec), kind: bDateTime}
	switch {
	case len(s) == 19:
	case len(s) == 20 && s[19] == 'Z':
		dt.tz = true
	case len(s) == 25 && (s[19] == '+' || s[19] == '-') && s[22] == ':' &&
		isDigit(s[20]) && isDigit(s[21]) && isDigit(s[23]) && isDigit(s[24]):
		th, tm := d(20), d(23)
		if th > 23 || tm > 59 {
			return dateTime{}, false, false
		}
		tzo := th*60 + tm
		if tzo > 840 {
			return dateTime{}, false, false
		}
		if s[19] == '-' {
			tzo = -tzo
		}
		dt.tz, dt.tzo = true, int16(tzo)
	default:
		return dateTime{}, false, false
	}
	return dt, true, true
}
