package trpc

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"trpc.group/trpc-go/trpc-agent-go/event"
	"trpc.group/trpc-go/trpc-agent-go/model"
	"trpc.group/trpc-go/trpc-agent-go/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

var _ session.SearchableService = (*SessionService)(nil)

// maxSearchResults is what SearchEvents answers when the request does not say.
const maxSearchResults = 10

// SearchEvents searches the user's transcripts with mnemod's search: the
// query's words (any of them, natural questions work), ranked by BM25 over
// the user's events, exact tokens first. mnemod's transcript search is by
// words only, whatever SearchMode asks: Score ranks the results (1 for the
// best, then lower) and is their SparseScore, and MinScore is not applied.
// Roles, SessionIDs, ExcludeSessionIDs, FilterKey (tRPC's own Event.Filter),
// CreatedAfter and CreatedBefore filter the events found.
func (s *SessionService) SearchEvents(ctx context.Context,
	req session.EventSearchRequest) ([]session.EventSearchResult, error) {
	if err := req.UserKey.CheckUserKey(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Query) == "" {
		return nil, nil
	}
	limit := req.MaxResults
	if limit <= 0 {
		limit = maxSearchResults
	}
	opts := mnemo.SearchOptions{Query: req.Query, User: req.UserKey.UserID, Limit: 100, MaxHits: 50, Context: 0}
	for _, role := range req.Roles {
		opts.Roles = append(opts.Roles, mnemo.Role(role))
	}
	if len(req.ExcludeSessionIDs) == 1 {
		opts.ExcludeSession = req.ExcludeSessionIDs[0]
	}
	found, err := s.client.Search(ctx, req.UserKey.AppName, opts)
	if err != nil {
		return nil, fmt.Errorf("trpc: searching the sessions of %s/%s: %w", req.UserKey.AppName, req.UserKey.UserID, err)
	}
	var results []session.EventSearchResult
	for _, sessionHits := range found.Results {
		found := sessionHits.Session
		if slices.Contains(req.ExcludeSessionIDs, found.ID) ||
			len(req.SessionIDs) > 0 && !slices.Contains(req.SessionIDs, found.ID) {
			continue
		}
		for _, hit := range sessionHits.Hits {
			result, ok := resultOf(found, hit)
			if ok && wanted(req, result) {
				results = append(results, result)
			}
		}
	}
	// mnemod ranks sessions by their best event; the caller asked for events, best first.
	results = results[:min(len(results), limit)]
	for i := range results {
		results[i].Score = 1 / float64(i+1)
		results[i].SparseScore = results[i].Score
	}
	return results, nil
}

func resultOf(found mnemo.SearchedSession, hit mnemo.SearchHit) (session.EventSearchResult, bool) {
	for i := range hit.Context {
		if hit.Context[i].Seq != hit.Seq {
			continue
		}
		e, err := eventFrom(&hit.Context[i])
		if err != nil {
			return session.EventSearchResult{}, false
		}
		return session.EventSearchResult{
			SessionKey:     session.Key{AppName: found.App, UserID: found.User, SessionID: found.ID},
			EventCreatedAt: e.Timestamp,
			Event:          *e,
			Role:           roleOf(e),
			Text:           cmp.Or(textOf(e.Response), hit.Excerpt),
		}, true
	}
	return session.EventSearchResult{}, false
}

func wanted(req session.EventSearchRequest, r session.EventSearchResult) bool {
	if !r.Event.Filter(req.FilterKey) {
		return false
	}
	if req.CreatedAfter != nil && r.EventCreatedAt.Before(*req.CreatedAfter) {
		return false
	}
	return req.CreatedBefore == nil || !r.EventCreatedAt.After(*req.CreatedBefore)
}

func roleOf(e *event.Event) model.Role {
	if e.Response != nil && len(e.Choices) > 0 && e.Choices[0].Message.Role != "" {
		return e.Choices[0].Message.Role
	}
	return model.RoleAssistant
}
