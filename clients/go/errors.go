package mnemo

import (
	"fmt"
	"time"
)

// Code is the error code of a mnemod answer (the "code" of its error body).
// Each Code is also an error, so that errors.Is(err, mnemo.NotFound) tells
// whether err is an *Error with that code.
type Code string

// The codes mnemod answers with (docs/api.md, Errors).
const (
	InvalidArgument         Code = "invalid_argument"
	Unauthenticated         Code = "unauthenticated"
	PermissionDenied        Code = "permission_denied"
	NotFound                Code = "not_found"
	MethodNotAllowed        Code = "method_not_allowed"
	RequestTimeout          Code = "request_timeout"
	AlreadyExists           Code = "already_exists"
	Conflict                Code = "conflict"
	PayloadTooLarge         Code = "payload_too_large"
	Rejected                Code = "rejected"
	Overloaded              Code = "overloaded"
	HeadersTooLarge         Code = "headers_too_large"
	Internal                Code = "internal"
	Unavailable             Code = "unavailable"
	HTTPVersionNotSupported Code = "http_version_not_supported"
)

// Error makes a Code usable as the target of errors.Is.
func (c Code) Error() string { return "mnemo: " + string(c) }

// Error is an answer of the daemon that is not 2xx.
type Error struct {
	// Status is the HTTP status, e.g. 404.
	Status int
	// Code is the answer's error code; "http_<status>" when the body was not
	// mnemod's (a proxy in between).
	Code Code
	// Message says what went wrong and names the field, key or id at fault.
	Message string
	// Details holds the error's details object, e.g. current_version of a conflict.
	Details map[string]any
	// RequestID is the answer's X-Request-Id, which the daemon's log names.
	RequestID string
	// RetryAfter is the answer's Retry-After; -1 when it had none.
	RetryAfter time.Duration
	// Attempts counts the attempts made, retries included.
	Attempts int
}

// Error reads "404 not_found: session u1/s9 not found in app shop (request r1)".
func (e *Error) Error() string {
	msg := fmt.Sprintf("mnemo: %d %s: %s", e.Status, string(e.Code), e.Message)
	if e.RequestID != "" {
		msg += " (request " + e.RequestID + ")"
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	return msg
}

// Is reports whether target is this error's Code.
func (e *Error) Is(target error) bool {
	code, ok := target.(Code)
	return ok && code == e.Code
}

// CurrentVersion is the session's version that a Conflict carries, for
// re-reading and writing again; ok is false when the error has none.
func (e *Error) CurrentVersion() (version int64, ok bool) {
	v, ok := e.Details["current_version"].(float64)
	return int64(v), ok
}

// ConnectionError is a request that got no answer: the daemon could not be
// reached, or the connection broke before the answer.
type ConnectionError struct {
	// Method and Path name the request.
	Method, Path string
	// URL is where the client looked for the daemon.
	URL string
	// Attempts counts the attempts made.
	Attempts int
	// Err is the last attempt's cause.
	Err error
}

// Error says which request failed where, and why.
func (e *ConnectionError) Error() string {
	return fmt.Sprintf("mnemo: %s %s: no answer from mnemod at %s after %d attempt(s) "+
		"(is it running and listening there?): %v", e.Method, e.Path, e.URL, e.Attempts, e.Err)
}

// Unwrap gives the cause, e.g. context.DeadlineExceeded or a *net.OpError.
func (e *ConnectionError) Unwrap() error { return e.Err }
