package mnemo

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// call is one request of the API and how it may be retried.
type call struct {
	method string
	path   string
	query  url.Values
	body   any
	// safe: the request may be sent again after its answer was lost.
	safe bool
	// once: no retry at all (a probe whose 503 is the answer).
	once bool
}

// do sends c and decodes a 2xx answer's body into out (when out is not nil),
// retrying as the Client's RetryPolicy says.
func (cl *Client) do(ctx context.Context, c call, out any) error {
	var body []byte
	if c.body != nil {
		var err error
		if body, err = json.Marshal(c.body); err != nil {
			return fmt.Errorf("mnemo: %s %s: the request body does not encode as JSON: %w", c.method, c.path, err)
		}
	}
	target := cl.base + c.path
	if len(c.query) > 0 {
		target += "?" + c.query.Encode()
	}
	retries := cl.retry.Retries
	if c.once {
		retries = 0
	}
	for attempt := 1; ; attempt++ {
		status, header, answer, err := cl.attempt(ctx, c.method, target, body)
		if err != nil {
			again := attempt <= retries && (neverSent(err) || c.safe) && ctx.Err() == nil
			if again && sleep(ctx, backoff(cl.retry, attempt)) == nil {
				continue
			}
			return &ConnectionError{Method: c.method, Path: c.path, URL: cl.where, Attempts: attempt, Err: err}
		}
		if status/100 == 2 {
			return decodeAnswer(status, answer, out)
		}
		apiErr := decodeError(status, header, answer)
		apiErr.Attempts = attempt
		// A 429 or 503 changed nothing, so any request may go again after it.
		if (status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable) && attempt <= retries {
			wait := apiErr.RetryAfter
			if wait < 0 {
				wait = time.Second // the daemon always sets it; a proxy may not
			}
			if wait <= cl.retry.MaxRetryAfter && sleep(ctx, wait) == nil {
				continue
			}
		}
		return apiErr
	}
}

// attempt sends one request and reads the whole answer.
func (cl *Client) attempt(ctx context.Context, method, target string, body []byte) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, cl.timeout)
	defer cancel()
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return 0, nil, nil, err
	}
	for key, values := range cl.header {
		req.Header[key] = values
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if cl.token != "" {
		req.Header.Set("Authorization", "Bearer "+cl.token)
	}
	resp, err := cl.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	return resp.StatusCode, resp.Header, answer, nil
}

// neverSent reports whether err happened before the request reached the
// daemon (the connection was refused or could not be made), so that even a
// request that is not safe to repeat may go again.
func neverSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func backoff(p RetryPolicy, attempt int) time.Duration {
	return min(p.MaxBackoff, p.Backoff<<(attempt-1))
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// decodeAnswer decodes a 2xx answer's body into out.
func decodeAnswer(status int, answer []byte, out any) error {
	if out == nil || status == http.StatusNoContent || len(answer) == 0 {
		return nil
	}
	if text, ok := out.(*string); ok {
		*text = string(answer)
		return nil
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("mnemo: the daemon's %d answer is not the JSON this client expects "+
			"(is the address a mnemod of a matching version?): %w", status, err)
	}
	return nil
}

// decodeError makes the *Error of an answer that is not 2xx.
func decodeError(status int, header http.Header, answer []byte) *Error {
	var shape struct {
		Error struct {
			Code    Code           `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	e := &Error{Status: status, RequestID: header.Get("X-Request-Id"), RetryAfter: retryAfter(header.Get("Retry-After"))}
	if json.Unmarshal(answer, &shape) == nil && shape.Error.Code != "" {
		e.Code, e.Message, e.Details = shape.Error.Code, shape.Error.Message, shape.Error.Details
	} else {
		// Not mnemod's error shape (a proxy in between): keep the start of the raw text.
		e.Code = Code("http_" + strconv.Itoa(status))
		e.Message = string(answer[:min(len(answer), 200)])
	}
	if e.Message == "" {
		e.Message = cmp.Or(http.StatusText(status), "an answer with no body")
	}
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	return e
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date; -1 when
// there is none or it cannot be read.
func retryAfter(value string) time.Duration {
	if seconds, err := strconv.ParseFloat(value, 64); err == nil && seconds >= 0 && seconds < 1e9 {
		return time.Duration(seconds * float64(time.Second))
	}
	if at, err := http.ParseTime(value); err == nil {
		return max(time.Until(at), 0)
	}
	return -1
}
