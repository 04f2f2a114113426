package validator

import (
	"strings"
	"testing"
	"time"
)

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// TestParseDatetimeForms covers every form of W3C Datetime (NOTE-datetime):
// YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDThh:mmTZD, YYYY-MM-DDThh:mm:ssTZD and
// YYYY-MM-DDThh:mm:ss.sTZD, with each kind of time zone designator.
func TestParseDatetimeForms(t *testing.T) {
	tests := []struct {
		in                      string
		want                    string // the instant, RFC 3339 in UTC
		hasTime, seconds, isUTC bool
	}{
		// Reduced precision: the start of the year, month or day, in UTC.
		{"2013", "2013-01-01T00:00:00Z", false, false, false},
		{"2013-07", "2013-07-01T00:00:00Z", false, false, false},
		{"2013-07-16", "2013-07-16T00:00:00Z", false, false, false},
		// hh:mm
		{"2013-07-16T19:20Z", "2013-07-16T19:20:00Z", true, false, true},
		{"2013-07-16T19:20+01:00", "2013-07-16T18:20:00Z", true, false, false},
		// hh:mm:ss
		{"2013-07-16T19:20:30Z", "2013-07-16T19:20:30Z", true, true, true},
		{"2013-07-16T19:20:30-05:00", "2013-07-17T00:20:30Z", true, true, false},
		// hh:mm:ss.s, one digit to more than nanoseconds (truncated)
		{"2013-07-16T19:20:30.4Z", "2013-07-16T19:20:30.4Z", true, true, true},
		{"2013-07-16T19:20:30.45+01:00", "2013-07-16T18:20:30.45Z", true, true, false},
		{"2013-07-16T19:20:30.123456789Z", "2013-07-16T19:20:30.123456789Z", true, true, true},
		{"2013-07-16T19:20:30.1234567891234Z", "2013-07-16T19:20:30.123456789Z", true, true, true},
		{"2013-07-16T19:20:30.000Z", "2013-07-16T19:20:30Z", true, true, true},
		// Offsets of both signs are subtracted: local time minus offset is
		// UTC. (The Python reference library gets the sign wrong.)
		{"2013-01-02T14:00:00+01:00", "2013-01-02T13:00:00Z", true, true, false},
		{"2013-01-02T12:00:00-01:00", "2013-01-02T13:00:00Z", true, true, false},
		{"2013-01-02T18:30:00+05:30", "2013-01-02T13:00:00Z", true, true, false},
		{"2013-01-02T09:15:00-03:45", "2013-01-02T13:00:00Z", true, true, false},
		{"2013-01-02T00:30:00+01:00", "2013-01-01T23:30:00Z", true, true, false},
		{"2013-12-31T23:30:00-01:00", "2014-01-01T00:30:00Z", true, true, false},
		{"2013-01-01T00:00:00+23:59", "2012-12-31T00:01:00Z", true, true, false},
		{"2013-01-02T13:00:00+00:00", "2013-01-02T13:00:00Z", true, true, false},
		{"2013-01-02T13:00:00-00:00", "2013-01-02T13:00:00Z", true, true, false},
		// Bounds of the fields.
		{"2013-01-02T00:00:00Z", "2013-01-02T00:00:00Z", true, true, true},
		{"2013-01-02T23:59:59Z", "2013-01-02T23:59:59Z", true, true, true},
		{"2013-12-31", "2013-12-31T00:00:00Z", false, false, false},
		{"0000-01-01", "0000-01-01T00:00:00Z", false, false, false},
		{"9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z", true, true, true},
		// Leap years: divisible by 4, except centuries not divisible by 400.
		{"2012-02-29", "2012-02-29T00:00:00Z", false, false, false},
		{"2000-02-29T12:00:00Z", "2000-02-29T12:00:00Z", true, true, true},
		{"2400-02-29", "2400-02-29T00:00:00Z", false, false, false},
		{"2013-02-28", "2013-02-28T00:00:00Z", false, false, false},
		{"2013-04-30", "2013-04-30T00:00:00Z", false, false, false},
		// XML whitespace around an attribute or element value is ignored.
		{" 2013-01-02T13:00:00Z\n", "2013-01-02T13:00:00Z", true, true, true},
		{"\t2013-01-02\r\n", "2013-01-02T00:00:00Z", false, false, false},
	}
	for _, tt := range tests {
		d, err := ParseDatetime(tt.in)
		if err != nil {
			t.Errorf("ParseDatetime(%q): unexpected error %v", tt.in, err)
			continue
		}
		if want := utc(tt.want); !d.Time.Equal(want) || d.Time.Location() != time.UTC {
			t.Errorf("ParseDatetime(%q) = %s, want %s", tt.in, d.Time.Format(time.RFC3339Nano), tt.want)
		}
		if d.HasTime != tt.hasTime || d.Seconds != tt.seconds || d.UTC != tt.isUTC {
			t.Errorf("ParseDatetime(%q): HasTime, Seconds, UTC = %v, %v, %v; want %v, %v, %v",
				tt.in, d.HasTime, d.Seconds, d.UTC, tt.hasTime, tt.seconds, tt.isUTC)
		}
		if want := tt.hasTime && tt.seconds && tt.isUTC; d.Complete() != want {
			t.Errorf("ParseDatetime(%q).Complete() = %v, want %v", tt.in, d.Complete(), want)
		}
	}
}

// TestParseDatetimeOffsetSign pins the comparison the rules make: the same
// instant written with an offset and in UTC is equal, and an offset east of
// Greenwich makes the instant earlier, not later.
func TestParseDatetimeOffsetSign(t *testing.T) {
	a, err1 := ParseDatetime("2013-01-02T14:00:00+01:00")
	b, err2 := ParseDatetime("2013-01-02T13:00:00Z")
	c, err3 := ParseDatetime("2013-01-02T13:30:00Z")
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	if !a.Time.Equal(b.Time) {
		t.Errorf("14:00+01:00 = %s, want equal to 13:00Z", a.Time)
	}
	if !a.Time.Before(c.Time) {
		t.Errorf("14:00+01:00 must be before 13:30Z (with the offset's sign inverted it would be 15:00Z)")
	}
}

// TestParseDatetimeErrors covers every error branch; the message must quote
// the value and say what is wrong.
func TestParseDatetimeErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{"", "the value is empty"},
		{"  \n", "the value is empty"},
		{"13-01-02", "it must start with a four-digit year"},
		{"2o13-01-02", "it must start with a four-digit year"},
		{"20130102", "expected YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss[.s]]TZD"},
		{"2013/01/02", "expected YYYY, YYYY-MM"},
		{"12013-01-02", "expected YYYY, YYYY-MM"},
		{"-2013-01-02", "it must start with a four-digit year"},
		{"2013-00", "the month must be 01 to 12"},
		{"2013-13-01", "the month must be 01 to 12"},
		{"2013-1-02", "the month must be 01 to 12"},
		{"2013-", "the month must be 01 to 12"},
		{"2013-01/02", "expected YYYY, YYYY-MM"},
		{"2013-01-2", "the day must be two digits, 01 to 31"},
		{"2013-02-", "the day must be two digits, 01 to 28"},
		{"2012-02-x", "the day must be two digits, 01 to 29"},
		{"2013-01-00", "2013-01 has no day 00"},
		{"2013-01-32", "2013-01 has no day 32"},
		{"2013-04-31", "2013-04 has no day 31"},
		{"2013-02-29", "2013-02 has no day 29"},
		{"1900-02-29", "1900-02 has no day 29"},
		{"2100-02-29T00:00:00Z", "2100-02 has no day 29"},
		{"2013-01-02 13:00:00Z", `separated by "T", not a space`},
		{"2013-01-02t13:00:00Z", "expected YYYY, YYYY-MM"},
		{"2013-01-02Z", "expected YYYY, YYYY-MM"},
		{"2013-01-02T", "the time must be hh:mm, hh:mm:ss or hh:mm:ss.s"},
		{"2013-01-02T1:00Z", "the time must be hh:mm"},
		{"2013-01-02T13Z", "the time must be hh:mm"},
		{"2013-01-02T1300Z", "the time must be hh:mm"},
		{"2013-01-02T13:0Z", "the time must be hh:mm"},
		{"2013-01-02T24:00:00Z", "hours must be 00-23 and minutes 00-59"},
		{"2013-01-02T23:60Z", "hours must be 00-23 and minutes 00-59"},
		{"2013-01-02T13:00:60Z", "seconds must be 00-59"},
		{"2013-01-02T13:00:5Z", "seconds must be 00-59"},
		{"2013-01-02T13:00:Z", "seconds must be 00-59"},
		{"2013-01-02T13:00:00.Z", "a decimal point must be followed by digits"},
		{"2013-01-02T13:00:00,5Z", `unexpected ",5Z" after the time`},
		{"2013-01-02T13:00:00", "has no time zone designator"},
		{"2013-01-02T13:00", "has no time zone designator"},
		{"2013-01-02T13:00:00.250", "has no time zone designator"},
		{"2013-01-02T13:00:00+0100", "the time zone designator must be Z, +hh:mm or -hh:mm"},
		{"2013-01-02T13:00:00+01", "the time zone designator must be Z, +hh:mm or -hh:mm"},
		{"2013-01-02T13:00:00+1:00", "the time zone designator must be Z, +hh:mm or -hh:mm"},
		{"2013-01-02T13:00:00+24:00", "the time zone designator must be Z, +hh:mm or -hh:mm"},
		{"2013-01-02T13:00:00-01:60", "the time zone designator must be Z, +hh:mm or -hh:mm"},
		{"2013-01-02T13:00:00z", `unexpected "z" after the time`},
		{"2013-01-02T13:00:00 Z", `unexpected " Z" after the time`},
		{"2013-01-02T13:00:00UTC", `unexpected "UTC" after the time`},
		{"2013-01-02T13:00:00ZZ", `unexpected "Z" at the end`},
		{"2013-01-02T13:00:00+01:00[Europe/Paris]", `unexpected "[Europe/Paris]" at the end`},
		{"2013-01-02T13:00:00Z ;", `unexpected " ;" at the end`},
	}
	for _, tt := range tests {
		_, err := ParseDatetime(tt.in)
		if err == nil {
			t.Errorf("ParseDatetime(%q): no error, want %q", tt.in, tt.msg)
			continue
		}
		if !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ParseDatetime(%q) error %q, want it to contain %q", tt.in, err, tt.msg)
		}
		if v := strings.Trim(tt.in, " \t\r\n"); v != "" && !strings.Contains(err.Error(), `"`+v+`"`) {
			t.Errorf("ParseDatetime(%q) error %q does not quote the value", tt.in, err)
		}
	}
}

// TestDaysIn checks the month lengths ParseDatetime relies on.
func TestDaysIn(t *testing.T) {
	want := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	for m, n := range want {
		if got := daysIn(2013, m+1); got != n {
			t.Errorf("daysIn(2013, %d) = %d, want %d", m+1, got, n)
		}
	}
	for _, y := range []struct{ year, feb int }{{2012, 29}, {2000, 29}, {1900, 28}, {2100, 28}, {2400, 29}, {2013, 28}} {
		if got := daysIn(y.year, 2); got != y.feb {
			t.Errorf("daysIn(%d, 2) = %d, want %d", y.year, got, y.feb)
		}
	}
}
