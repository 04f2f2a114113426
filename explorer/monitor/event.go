package monitor

import (
	"time"

	"github.com/rscheck/rscheck/validator"
)

// An EventKind says what an Event reports.
type EventKind string

// The kinds of Event, in the order a subscription meets them.
const (
	// EventSubscribed: the hub accepted a subscription request (202);
	// its verification of intent is awaited. Lease is the lease
	// requested (0 when the hub was left to choose); Renewal is set for a
	// renewal.
	EventSubscribed EventKind = "subscribed"
	// EventVerified: the hub verified the intent of the subscription and
	// it is active. Lease is the lease granted, Expires its end.
	EventVerified EventKind = "verified"
	// EventRenewed: a renewal was verified; Lease and Expires are the new
	// lease's.
	EventRenewed EventKind = "renewed"
	// EventDenied: the hub denied the subscription (hub.mode=denied);
	// Reason is the hub's hub.reason.
	EventDenied EventKind = "denied"
	// EventNotification: a delivery was received and checked;
	// Notification holds it, its report and its latency.
	EventNotification EventKind = "notification"
	// EventRefused: a request to the callback was refused or its content
	// locally ignored (unknown callback, verification not pending, bad
	// signature, oversize, not a notification, queue full, …). Request
	// describes it; Notification is set when the body was checked.
	EventRefused EventKind = "refused"
	// EventFollowed: with Options.Follow, the Change List was compared
	// with a change notification: Notification.Follow says how.
	EventFollowed EventKind = "followed"
	// EventUnsubscribed: the hub verified the unsubscription.
	EventUnsubscribed EventKind = "unsubscribed"
	// EventError: something failed: a request to the hub, a verification
	// that did not come, a renewal, a lease that expired. Reason says
	// what.
	EventError EventKind = "error"
)

// An Event is one step of the monitoring, as Options.OnEvent receives
// it. Kind says which of the optional fields are set. Events are values:
// they share nothing with the Monitor, so they may be kept, encoded
// (encoding/json writes durations in nanoseconds) and sent elsewhere.
type Event struct {
	Kind EventKind `json:"kind"`
	Time time.Time `json:"time"`
	// Topic and Hub name the channel; both are empty for a request to an
	// unknown callback URL.
	Topic string `json:"topic,omitempty"`
	Hub   string `json:"hub,omitempty"`
	// Lease is the lease requested (EventSubscribed) or granted
	// (EventVerified, EventRenewed); Expires is when it ends.
	Lease   time.Duration `json:"lease,omitempty"`
	Expires time.Time     `json:"expires,omitzero"`
	// Renewal is set on the EventSubscribed of a renewal.
	Renewal bool `json:"renewal,omitempty"`
	// Callback is the subscription's callback URL (EventSubscribed,
	// EventVerified, EventRenewed).
	Callback string `json:"callback,omitempty"`
	// Reason says, for a person, why the hub denied the subscription,
	// why a request was refused or what failed.
	Reason string `json:"reason,omitempty"`
	// Notification is the checked delivery (EventNotification,
	// EventFollowed, and EventRefused when its body was checked).
	Notification *Notification `json:"notification,omitempty"`
	// Request is the refused request (EventRefused).
	Request *Request `json:"request,omitempty"`
	// Findings are the findings the event adds to the report, if any
	// (those of a notification are in Notification.Report).
	Findings []validator.Finding `json:"findings,omitempty"`
}

// A Request describes a request to the callback that was refused.
type Request struct {
	Method string `json:"method"`
	// Path is the request's path and query, as received.
	Path string `json:"path"`
	// Remote is the address the request came from.
	Remote string `json:"remote,omitempty"`
	// Status is the HTTP status the callback answered: 404 for what
	// matches no subscription, 410 for a subscription that ended, 413 for
	// a body over the limit, 503 when the queue is full, 202 for a
	// delivery accepted but locally ignored (WebSub §7.1.2).
	Status int `json:"status"`
}
