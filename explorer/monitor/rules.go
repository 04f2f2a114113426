package monitor

import (
	"slices"
	"strings"

	"github.com/rscheck/rscheck/explorer"
	"github.com/rscheck/rscheck/validator"
)

// Sections of the specifications the monitor's rules cite. The anchors
// are those of the published HTML.
var (
	specCNPayload   = validator.Spec{Doc: validator.SpecChangeNotification, Section: "3", Anchor: "ChangeNoti"}
	specCNTransport = validator.Spec{Doc: validator.SpecChangeNotification, Section: "4", Anchor: "Transport"}
	specCNSubscribe = validator.Spec{Doc: validator.SpecChangeNotification, Section: "4.2", Anchor: "Destination2Hub"}
	specCNDeliver   = validator.Spec{Doc: validator.SpecChangeNotification, Section: "4.3", Anchor: "Hub2Destination"}
	specCNAdvertise = validator.Spec{Doc: validator.SpecChangeNotification, Section: "5", Anchor: "AdvNotChan"}
	specFNPayload   = validator.Spec{Doc: validator.SpecFrameworkNotification, Section: "3", Anchor: "FrameworkNoti"}
	specWSDenial    = validator.Spec{Doc: validator.SpecWebSub, Section: "5.2", Anchor: "subscription-validation"}
	specWSVerify    = validator.Spec{Doc: validator.SpecWebSub, Section: "5.3", Anchor: "hub-verifies-intent"}
	specWSDetails   = validator.Spec{Doc: validator.SpecWebSub, Section: "5.3.1", Anchor: "verification-details"}
	specWSSignature = validator.Spec{Doc: validator.SpecWebSub, Section: "7.1.2", Anchor: "signature-validation"}
)

// Subscription rules (RM101–RM106): what a Destination meets when it
// subscribes to a channel, keeps the subscription and leaves it.
var (
	RuleSubscriptionAccepted = &validator.Rule{
		ID: "RM101", Name: "subscription-accepted", Severity: validator.Error, Spec: specCNSubscribe,
		Doc: "A hub answers a subscription or unsubscription request with 202 Accepted.",
	}
	RuleIntentVerified = &validator.Rule{
		ID: "RM102", Name: "intent-verified", Severity: validator.Error, Spec: specCNSubscribe,
		Doc: "A hub verifies the intent of every subscription and unsubscription it accepted with a GET to the callback carrying hub.mode, hub.topic and hub.challenge.",
	}
	RuleLeaseSeconds = &validator.Rule{
		ID: "RM103", Name: "lease-seconds", Severity: validator.Error, Spec: specWSVerify,
		Doc: "A hub's verification of a subscription gives the lease it grants in hub.lease_seconds, a positive number of seconds.",
	}
	RuleLeaseRange = &validator.Rule{
		ID: "RM104", Name: "lease-range", Severity: validator.Warning, Spec: specCNSubscribe,
		Doc: "A hub should grant a lease of at least 300 seconds (5 minutes) and at most 2,678,400 seconds (1 month).",
	}
	RuleSubscriptionDenied = &validator.Rule{
		ID: "RM105", Name: "subscription-denied", Severity: validator.Warning, Spec: specWSDenial,
		Doc: "The hub accepts subscriptions to a channel its Source advertises; a denial (hub.mode=denied) is reported with the hub's reason.",
	}
	RuleChannelAdvertised = &validator.Rule{
		ID: "RM106", Name: "channel-advertised", Severity: validator.Warning, Spec: specCNAdvertise,
		Doc: "A topic URI is advertised as a notification channel, with its hub, in a Capability List of its Source.",
	}
)

// Payload rules (RM110–RM116): what holds between a notification, its
// channel, the notifications before it and the Source's hierarchy.
var (
	RuleChannelCapability = &validator.Rule{
		ID: "RM110", Name: "channel-capability", Severity: validator.Error, Spec: specCNTransport,
		Doc: "A notification's capability is its channel's: change-notification on a Change Notification channel, framework-notification on a Framework Notification channel.",
	}
	RuleChangeUpLink = &validator.Rule{
		ID: "RM111", Name: "change-notification-up", Severity: validator.Error, Spec: specCNPayload,
		Doc: "A change notification's rel=\"up\" link, when present, points to the Capability List that advertises its channel.",
	}
	RuleFrameworkUpLink = &validator.Rule{
		ID: "RM112", Name: "framework-notification-up", Severity: validator.Error, Spec: specFNPayload,
		Doc: "A framework notification's rel=\"up\" link, when present, points to the Capability List of its channel, or to the Source Description for a change to a Capability List.",
	}
	RuleNotificationOverlap = &validator.Rule{
		ID: "RM113", Name: "notification-overlap", Severity: validator.Error, Spec: specCNPayload,
		Doc: "The from/until periods of the change notifications of a channel do not overlap: a notification's from is not earlier than the until of the one before.",
	}
	RuleNotificationGap = &validator.Rule{
		ID: "RM114", Name: "notification-gap", Severity: validator.Warning, Spec: specCNPayload,
		Doc: "Consecutive change notifications cover consecutive periods: a notification's from equals the until of the one before, or changes went unnotified.",
	}
	RuleNotificationReordered = &validator.Rule{
		ID: "RM115", Name: "notification-reordered", Severity: validator.Info, Spec: specCNPayload,
		Doc: "A change notification arrived after one covering a later period; Destinations put them back in order by from and until.",
	}
	RuleFrameworkIndexLink = &validator.Rule{
		ID: "RM116", Name: "framework-index-link", Severity: validator.Error, Spec: specFNPayload,
		Doc: "A framework notification about a document listed in an index has an <rs:ln rel=\"index\"> pointing to that index.",
	}
)

// Delivery rules (RM120–RM126): the hub's POST to the callback, and
// requests the callback refuses.
var (
	RuleDeliveryContentType = &validator.Rule{
		ID: "RM120", Name: "delivery-content-type", Severity: validator.Error, Spec: specCNDeliver,
		Doc: "A hub delivers a notification with Content-Type application/xml.",
	}
	RuleDeliverySelf = &validator.Rule{
		ID: "RM121", Name: "delivery-self-link", Severity: validator.Error, Spec: specCNDeliver,
		Doc: "A hub's delivery has a Link header with rel=\"self\" giving the topic URI subscribed to.",
	}
	RuleDeliveryHub = &validator.Rule{
		ID: "RM122", Name: "delivery-hub-link", Severity: validator.Error, Spec: specCNDeliver,
		Doc: "A hub's delivery has a Link header with rel=\"hub\" giving the hub subscribed to.",
	}
	RuleDeliverySignature = &validator.Rule{
		ID: "RM123", Name: "delivery-signature", Severity: validator.Error, Spec: specWSSignature,
		Doc: "When the subscription gave a secret, every delivery has an X-Hub-Signature that is the sha1, sha256, sha384 or sha512 HMAC of its body; a delivery without one is ignored.",
	}
	RuleDeliverySize = &validator.Rule{
		ID: "RM124", Name: "delivery-size", Severity: validator.Warning, Spec: specCNPayload,
		Doc: "A notification fits within the monitor's size limit (16 MiB unless configured); very many changes are split into a sequence of notifications.",
	}
	RuleDeliveryPayload = &validator.Rule{
		ID: "RM125", Name: "delivery-payload", Severity: validator.Error, Spec: specCNDeliver,
		Doc: "The body of a delivery is a notification payload, an XML <urlset> document; anything else is ignored.",
	}
	RuleCallbackUnexpected = &validator.Rule{
		ID: "RM126", Name: "callback-unexpected", Severity: validator.Warning, Spec: specWSDetails,
		Doc: "The callback answers 404 to what matches no subscription the monitor asked for: an unknown callback URL, a verification of a topic or mode not pending, a denial or a delivery for no active subscription.",
	}
)

// Follow rules (RM130–RM131): a change notification against the Source's
// Change List (rscheck monitor --follow).
var (
	RuleChangeListFollows = &validator.Rule{
		ID: "RM130", Name: "changelist-follows", Severity: validator.Warning, Spec: specCNPayload,
		Doc: "The changes a change notification announces appear in the Source's Change List within the grace period (with --follow).",
	}
	RuleChangeListDelay = &validator.Rule{
		ID: "RM131", Name: "changelist-delay", Severity: validator.Info, Spec: specCNPayload,
		Doc: "How long after a change notification its changes appeared in the Source's Change List (with --follow).",
	}
)

// rules is the catalogue, in ID order (a test checks it).
var rules = []*validator.Rule{
	RuleSubscriptionAccepted, RuleIntentVerified, RuleLeaseSeconds, RuleLeaseRange,
	RuleSubscriptionDenied, RuleChannelAdvertised,
	RuleChannelCapability, RuleChangeUpLink, RuleFrameworkUpLink, RuleNotificationOverlap,
	RuleNotificationGap, RuleNotificationReordered, RuleFrameworkIndexLink,
	RuleDeliveryContentType, RuleDeliverySelf, RuleDeliveryHub, RuleDeliverySignature,
	RuleDeliverySize, RuleDeliveryPayload, RuleCallbackUnexpected,
	RuleChangeListFollows, RuleChangeListDelay,
}

// Rules returns the catalogue of the monitor's rules (RM1xx), in ID order.
// Their Run is nil: the monitor reports their findings in the reports of
// the channels, notifications and refused requests they concern. The
// payload itself is checked by the validator's document rules, which
// include the notification payload rules RN1xx. The slice is a copy; the
// rules are shared and must not be modified.
func Rules() []*validator.Rule { return append([]*validator.Rule(nil), rules...) }

// Catalogue returns every rule rscheck can report, in ID order: the
// validator's document rules, the explorer's (with the dump packages'),
// and the monitor's. TestRules checks that their IDs are distinct. The
// command line and cmd/serve --monitor name and document findings from
// it; the browser's worker, which has no monitor, lists the first two.
func Catalogue() []*validator.Rule {
	all := append(append(validator.Rules(), explorer.Rules()...), rules...)
	slices.SortFunc(all, func(a, b *validator.Rule) int { return strings.Compare(a.ID, b.ID) })
	return all
}
