package monitortest

// A Defect is a defect planted in one publication of a Source: in the
// payload, in the Source's Change List, or in the hub's delivery (the
// Source asks its Hub with DefectHeader).
type Defect int

// The defects. Good is none.
const (
	Good Defect = iota
	// Payload defects of change notifications.
	Disorder        // two entries out of chronological order (RN102)
	Overlap         // from earlier than the previous notification's until (RM113)
	Gap             // from later than the previous notification's until (RM114)
	WrongChannel    // a framework-notification payload on the change channel (RM110)
	WrongUpLink     // rel="up" to the Source Description (RM111)
	NotInChangeList // the changes never appear in the Change List (RM130, with Follow)
	// Payload defects of framework notifications.
	NoIndexLink // about a Resource List of an index, without rel="index" (RM116)
	// Delivery defects, planted by the Hub.
	NoSelfLink       // no Link rel="self" (RM121)
	OtherSelfLink    // Link rel="self" names another topic (RM121)
	NoHubLink        // no Link rel="hub" (RM122)
	WrongContentType // Content-Type text/plain (RM120)
	BadSignature     // X-Hub-Signature made with another secret (RM123, ignored)
	NoSignature      // no X-Hub-Signature although a secret was given (RM123, ignored)
	NotXML           // a body that is not XML (RM125, ignored)
	numDefects
)

// Defects lists every defect but Good.
func Defects() []Defect {
	ds := make([]Defect, 0, numDefects-1)
	for d := Good + 1; d < numDefects; d++ {
		ds = append(ds, d)
	}
	return ds
}

var defectNames = [...]string{"good", "disorder", "overlap", "gap", "wrong-channel", "wrong-up-link", "not-in-changelist",
	"no-index-link", "no-self-link", "other-self-link", "no-hub-link", "wrong-content-type", "bad-signature", "no-signature", "not-xml"}

// String names the defect.
func (d Defect) String() string {
	if d < 0 || d >= numDefects {
		return "defect(?)"
	}
	return defectNames[d]
}

// Rules returns the IDs of the rules a monitor reports for the defect,
// on the notification that carries it. NotInChangeList is reported only
// when the monitor follows the Change List.
func (d Defect) Rules() []string {
	switch d {
	case Disorder:
		return []string{"RN102"}
	case Overlap:
		return []string{"RM113"}
	case Gap:
		return []string{"RM114"}
	case WrongChannel:
		return []string{"RM110"}
	case WrongUpLink:
		return []string{"RM111"}
	case NotInChangeList:
		return []string{"RM130"}
	case NoIndexLink:
		return []string{"RM116"}
	case NoSelfLink, OtherSelfLink:
		return []string{"RM121"}
	case NoHubLink:
		return []string{"RM122"}
	case WrongContentType:
		return []string{"RM120"}
	case BadSignature, NoSignature:
		return []string{"RM123"}
	case NotXML:
		return []string{"RM125"}
	}
	return nil
}

// Framework reports whether the defect is published on the framework
// channel (the others go on the change channel).
func (d Defect) Framework() bool { return d == NoIndexLink }

// Ignored reports whether a monitor ignores the delivery that carries
// the defect: the Source then sends the same period again next time, as
// it would after a failed delivery.
func (d Defect) Ignored() bool { return d == BadSignature || d == NoSignature || d == NotXML }

// delivery reports whether the Hub plants the defect.
func (d Defect) delivery() bool { return d >= NoSelfLink && d < numDefects }
