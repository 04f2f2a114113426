// Package monitor is a WebSub subscriber that checks a ResourceSync
// Source's notifications as they arrive: it subscribes to the Source's
// change and framework notification channels (ResourceSync Change
// Notification and Framework Notification 1.0.1, which use the W3C WebSub
// Recommendation), receives what the hubs deliver, and checks that each
// notification is conformant, in order, and consistent with the Source's
// hierarchy and Change List.
//
// # Discovery
//
// Discover finds the channels: every change-notification and
// framework-notification entry of the Source's Capability Lists (topic
// URI in <loc>, hub in <rs:ln rel="hub">, CN §5), found by exploring the
// Source with package explorer, whose checks of the topic URIs (RX120,
// RX121) become findings of the channels. Discover also accepts a topic
// URI directly: its hub and canonical URL come from its Link headers
// (rel="hub", rel="self"), as a WebSub subscriber discovers them.
//
// # Subscribing
//
// A Monitor is the subscriber. It is an http.Handler, mounted wherever the
// application serves it; Options.PublicURL is where hubs reach it, which
// may differ from where it listens (a proxy, a tunnel). Run subscribes to
// every channel with a callback of its own under that URL (an unguessable
// path segment, WebSub §5.1.1) and, unless Options.NoSecret, a random
// secret. The callback answers a verification of intent with the
// challenge only for a pending request of the same mode and topic, and
// with 404 to anything else (WebSub §5.3.1); it records the lease granted
// and renews the subscription when Options.RenewAt of it has passed; it
// records a denial (hub.mode=denied) with its reason. When the context of
// Run ends, every subscription is unsubscribed, and the unsubscription
// verified, before Run returns.
//
// # Deliveries
//
// A delivery is read with a size limit (413 beyond) and a time limit, its
// X-Hub-Signature verified in constant time when the subscription has a
// secret, and queued; the hub gets 202 at once. A delivery whose
// signature is wrong or missing is acknowledged too, as WebSub §7.1.2
// allows, and ignored. The queue and the deliveries read at once are
// bounded (503 beyond, which hubs retry), so a slow or hostile sender
// never holds the monitor up.
//
// # Checks
//
// A Checker checks each queued delivery, in order of receipt, and needs
// no network: it runs in the browser too. The payload is validated with
// validator.Validate (all document rules, the notification payload rules
// RN1xx among them); then the monitor's rules, Rules, check what only a
// subscriber can see:
//
//	RM101–RM106  the subscription: 202 answers, verification of intent,
//	             lease granted, denial, channel advertised
//	RM110–RM116  the payload against its channel: capability, up link,
//	             consecutive non-overlapping from/until periods across
//	             notifications, index links of framework notifications
//	             (the exploration tells which documents an index lists)
//	RM120–RM126  the delivery: Content-Type, Link self and hub, signature,
//	             size, payload, and requests the callback refuses
//	RM130–RM131  with Options.Follow, whether and when the changes of a
//	             change notification appear in the Source's Change List
//
// # Events and reports
//
// Options.OnEvent receives every step as an Event, in order: subscribed,
// verified, renewed, denied, notification (with its report and latency),
// refused, followed, unsubscribed, error. Events are plain values that
// encode to JSON, for a server to forward (Server-Sent Events, say).
// Result returns the whole report in the form of package
// validator/report: one document per channel, then one per delivery,
// named "TOPIC#SEQ (received TIME)", and one per refused request.
package monitor
