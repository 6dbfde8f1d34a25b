package trpc

import (
	"context"
	"errors"
	"fmt"

	"trpc.group/trpc-go/trpc-agent-go/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// CreateSessionSummary has mnemod's summarizer summarize the session's
// events of filterKey (tRPC's prefix rule: "" is the whole session) now,
// and keeps the summary in sess. Nothing new to summarize is no error.
func (s *SessionService) CreateSessionSummary(ctx context.Context, sess *session.Session, filterKey string,
	force bool) error {
	key, err := keyOf(sess)
	if err != nil {
		return err
	}
	made, err := s.client.Summarize(ctx, key.AppName, key.UserID, key.SessionID,
		mnemo.SummarizeOptions{FilterKey: filterKey, Force: force, Wait: true})
	if errors.Is(err, mnemo.Conflict) {
		return nil // forced, with every event already summarized
	}
	if err != nil {
		return fmt.Errorf("trpc: summarizing session %s/%s/%s: %w", key.AppName, key.UserID, key.SessionID, err)
	}
	page, err := s.client.ListEvents(ctx, key.AppName, key.UserID, key.SessionID,
		mnemo.ListEventsOptions{AfterSeq: made.UpToSeq - 1, Limit: 1})
	if err != nil {
		return fmt.Errorf("trpc: reading session %s/%s/%s: %w", key.AppName, key.UserID, key.SessionID, err)
	}
	sess.SummariesMu.Lock()
	defer sess.SummariesMu.Unlock()
	if sess.Summaries == nil {
		sess.Summaries = map[string]*session.Summary{}
	}
	sess.Summaries[filterKey] = summaryOf(made, page.Events)
	return nil
}

// EnqueueSummaryJob asks mnemod's summarizer for the summary and returns
// at once; mnemod's summary workers write it, and GetSession reads it.
func (s *SessionService) EnqueueSummaryJob(ctx context.Context, sess *session.Session, filterKey string,
	force bool) error {
	key, err := keyOf(sess)
	if err != nil {
		return err
	}
	_, err = s.client.Summarize(ctx, key.AppName, key.UserID, key.SessionID,
		mnemo.SummarizeOptions{FilterKey: filterKey, Force: force})
	if err != nil && !errors.Is(err, mnemo.Conflict) {
		return fmt.Errorf("trpc: asking for a summary of session %s/%s/%s: %w",
			key.AppName, key.UserID, key.SessionID, err)
	}
	return nil
}

// GetSessionSummaryText is the summary of the filter key that sess holds
// (read with it, or made by CreateSessionSummary), falling back to the
// whole session's summary as tRPC does; as there, a summary older than the
// session does not count.
func (s *SessionService) GetSessionSummaryText(_ context.Context, sess *session.Session,
	options ...session.SummaryOption) (string, bool) {
	if _, err := keyOf(sess); err != nil {
		return "", false
	}
	opts := &session.SummaryOptions{FilterKey: session.SummaryFilterKeyAllContents}
	for _, o := range options {
		o(opts)
	}
	sess.SummariesMu.RLock()
	defer sess.SummariesMu.RUnlock()
	for _, key := range []string{opts.FilterKey, session.SummaryFilterKeyAllContents} {
		sum := sess.Summaries[key]
		if sum != nil && sum.Summary != "" && !sum.UpdatedAt.Before(sess.CreatedAt) {
			return sum.Summary, true
		}
	}
	return "", false
}

// summaries are the latest summaries of a session, by filter key.
func (s *SessionService) summaries(ctx context.Context, app, user, id string,
	events []mnemo.Event) (map[string]*session.Summary, error) {
	list, err := s.client.Summaries(ctx, app, user, id)
	if err != nil {
		return nil, fmt.Errorf("trpc: reading the summaries of session %s/%s/%s: %w", app, user, id, err)
	}
	summaries := make(map[string]*session.Summary, len(list))
	for i := range list {
		summaries[list[i].FilterKey] = summaryOf(&list[i], events)
	}
	return summaries, nil
}

// summaryOf is a mnemod summary as tRPC keeps it: its cutoff is the time of
// the last event it covers, as tRPC wrote it (mnemod keeps microseconds),
// or the summary's creation when that event is gone.
func summaryOf(sum *mnemo.Summary, events []mnemo.Event) *session.Summary {
	cutoff := sum.CreatedAt
	for i := range events {
		if events[i].Seq != sum.UpToSeq {
			continue
		}
		cutoff = events[i].Timestamp
		if e, err := eventFrom(&events[i]); err == nil {
			cutoff = e.Timestamp
		}
	}
	return &session.Summary{Summary: sum.Text, UpdatedAt: cutoff.UTC(),
		Boundary: session.NewSummaryBoundary(sum.FilterKey, cutoff)}
}

func keyOf(sess *session.Session) (session.Key, error) {
	if sess == nil {
		return session.Key{}, session.ErrNilSession
	}
	key := session.Key{AppName: sess.AppName, UserID: sess.UserID, SessionID: sess.ID}
	return key, key.CheckSessionKey()
}
