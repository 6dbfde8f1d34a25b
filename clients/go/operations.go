package mnemo

import (
	"context"
	"errors"
	"net/http"
)

// Info describes the daemon: its version and storage plugin.
type Info struct {
	Version string `json:"version"`
	Storage struct {
		Plugin       string   `json:"plugin"`
		ABIVersion   int      `json:"abi_version"`
		Capabilities []string `json:"capabilities"`
	} `json:"storage"`
	UptimeSeconds float64 `json:"uptime_seconds"`
}

// Info reads /v1/info.
func (c *Client) Info(ctx context.Context) (*Info, error) {
	var out Info
	err := c.get(ctx, "/v1/info", nil, &out)
	return result(&out, err)
}

// Healthy reports whether the daemon's process serves (/healthz).
func (c *Client) Healthy(ctx context.Context) error {
	return c.get(ctx, "/healthz", nil, nil)
}

// Ready reports whether the daemon's storage answers (/readyz): false while
// it drains or its storage fails, an error when it cannot be asked.
func (c *Client) Ready(ctx context.Context) (bool, error) {
	err := c.do(ctx, call{method: "GET", path: "/readyz", once: true}, nil)
	var apiErr *Error
	if errors.As(err, &apiErr) && (apiErr.Status == http.StatusServiceUnavailable ||
		apiErr.Status == http.StatusTooManyRequests) {
		return false, nil
	}
	return err == nil, err
}

// Metrics reads /metrics in Prometheus text format.
func (c *Client) Metrics(ctx context.Context) (string, error) {
	var out string
	err := c.get(ctx, "/metrics", nil, &out)
	return out, err
}
