package mnemo

import (
	"context"
	"iter"
	"time"
)

// AppActivity is an app holding data (a live session or memory), or named in
// the daemon's config, with its counts.
type AppActivity struct {
	App        string `json:"app"`
	Configured bool   `json:"configured"`
	Users      int64  `json:"users"`
	Sessions   int64  `json:"sessions"`
	Events     int64  `json:"events"`
	Memories   int64  `json:"memories"`
	// LastActiveAt is the latest updated_at among the app's data; nil when it holds none.
	LastActiveAt *time.Time `json:"last_active_at"`
}

// UserActivity is one of an app's users holding data, with its counts.
type UserActivity struct {
	User         string     `json:"user"`
	Sessions     int64      `json:"sessions"`
	Events       int64      `json:"events"`
	Memories     int64      `json:"memories"`
	LastActiveAt *time.Time `json:"last_active_at"`
}

// UserPage is one page of an app's users, most recently active first.
type UserPage struct {
	Users         []UserActivity `json:"users"`
	NextPageToken string         `json:"next_page_token"`
}

// ListUsersOptions pages ListUsers.
type ListUsersOptions struct {
	Limit     int
	PageToken string
}

// ListApps answers every app holding data or configured, by name. It needs
// an admin token: an app's own token is PermissionDenied.
func (c *Client) ListApps(ctx context.Context) ([]AppActivity, error) {
	var out struct {
		Apps []AppActivity `json:"apps"`
	}
	if err := c.get(ctx, "/v1/apps", nil, &out); err != nil {
		return nil, err
	}
	return out.Apps, nil
}

// ListUsers answers one page of an app's users holding data, most recently active first.
func (c *Client) ListUsers(ctx context.Context, app string, opts ListUsersOptions) (*UserPage, error) {
	q := query{}.int("limit", int64(opts.Limit)).str("page_token", opts.PageToken)
	var out UserPage
	err := c.get(ctx, appPath(app)+"/users", q, &out)
	return result(&out, err)
}

// Users iterates over every page of ListUsers.
func (c *Client) Users(ctx context.Context, app string, opts ListUsersOptions) iter.Seq2[UserActivity, error] {
	return pages(opts.PageToken, func(token string) ([]UserActivity, string, error) {
		opts.PageToken = token
		page, err := c.ListUsers(ctx, app, opts)
		if err != nil {
			return nil, "", err
		}
		return page.Users, page.NextPageToken, nil
	})
}
