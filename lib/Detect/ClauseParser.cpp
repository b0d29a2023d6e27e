//===- ClauseParser.cpp - gpu_parallel clause grammar ----------------------===//
//
//   clauses  := clause (',' clause)*
//   clause   := 'enable' | 'disable'
//             | 'devices' '(' INT ')'            INT >= 1
//             | 'schedule' '(' KIND [',' INT] ')' KIND: block | cyclic | dynamic
//             | 'min_iters' '(' INT ')'          INT >= 1
//             | 'collapse' '(' INT ')'           1 <= INT <= 3
//             | 'reduce' '(' OP ':' NAME (',' NAME)* ')'  OP: + * min max & | ^
//
// The schedule words and the operators are the rows of clustrix/Descriptor.def.
//             | 'extent' '(' PATH ',' EXPR ')'   EXPR: balanced tokens, evaluated at run time
//   PATH   ::= NAME (('.' | '->') NAME)*          a pointer: a variable or a member of one
//
//===----------------------------------------------------------------------===//
#include "clustrix/Detect/ClauseParser.h"

#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace clang;
using namespace clustrix;

std::string clustrix::closestMatch(llvm::StringRef Word, llvm::ArrayRef<llvm::StringRef> Candidates) {
  unsigned Best = ~0u;
  std::string BestName;
  for (llvm::StringRef C : Candidates) {
    // edit_distance answers MaxEditDistance + 1 for anything farther.
    unsigned D = Word.edit_distance(C, /*AllowReplacements=*/true, /*MaxEditDistance=*/3);
    if (D <= 3 && D < Best && D <= std::max<size_t>(1, C.size() / 3)) {
      Best = D;
      BestName = C.str();
    }
  }
  return BestName;
}

namespace {
const llvm::StringRef ClauseNames[] = {"enable",   "disable",  "devices", "schedule",
                                       "min_iters", "collapse", "reduce",  "extent"};

/// A recursive-descent parser of one clause list; stops at the first error.
class Parser {
public:
  Parser(const std::vector<ClauseToken> &Toks, SourceLocation End, LoopClauses &Out)
      : Toks(Toks), End(End), Out(Out) {}

  std::vector<ClauseError> run() {
    if (Toks.empty())
      return {};
    while (Errors.empty()) {
      parseClause();
      if (!Errors.empty())
        break;
      if (atEnd())
        break;
      if (!peek().is(tok::comma)) {
        error(loc(), "expected ',' between clauses, found '" + peek().Spelling + "'");
        break;
      }
      ++Pos;
      if (atEnd()) {
        error(loc(), "expected a clause after ','");
        break;
      }
    }
    return Errors;
  }

private:
  struct Tok {
    const ClauseToken *T;
    bool is(tok::TokenKind K) const { return T && T->Kind == K; }
    std::string Spelling;
  };
  bool atEnd() const { return Pos >= Toks.size(); }
  Tok peek() const {
    if (atEnd())
      return {nullptr, "end of clauses"};
    return {&Toks[Pos], Toks[Pos].Spelling};
  }
  SourceLocation loc() const { return atEnd() ? End : Toks[Pos].Loc; }
  void error(SourceLocation L, std::string Msg, std::string Fix = "", unsigned FixLen = 0) {
    Errors.push_back({L, std::move(Msg), std::move(Fix), FixLen});
  }
  bool expect(tok::TokenKind K, const char *What, llvm::StringRef Clause) {
    if (peek().is(K)) {
      ++Pos;
      return true;
    }
    error(loc(), std::string("expected ") + What + " in '" + Clause.str() + "' clause, found '" +
                     peek().Spelling + "'");
    return false;
  }
  bool isIdentifierLike() const {
    if (atEnd())
      return false;
    const std::string &S = Toks[Pos].Spelling;
    return !S.empty() && (isalpha(static_cast<unsigned char>(S[0])) || S[0] == '_');
  }
  bool parseInt(llvm::StringRef Clause, int64_t Min, int64_t Max, int64_t &V) {
    if (!peek().is(tok::numeric_constant)) {
      error(loc(), "expected an integer in '" + Clause.str() + "' clause, found '" +
                       peek().Spelling + "'");
      return false;
    }
    llvm::StringRef S = Toks[Pos].Spelling;
    S = S.rtrim("uUlL");
    unsigned long long U;
    if (S.getAsInteger(0, U) || U > static_cast<unsigned long long>(INT64_MAX)) {
      error(loc(), "'" + Toks[Pos].Spelling + "' is not a valid integer for '" + Clause.str() +
                       "'");
      return false;
    }
    V = static_cast<int64_t>(U);
    if (V < Min || V > Max) {
      error(loc(), "'" + Clause.str() + "' must be " +
                       (Max == INT64_MAX ? "at least " + std::to_string(Min)
                                         : "between " + std::to_string(Min) + " and " +
                                               std::to_string(Max)) +
                       ", found " + std::to_string(V));
      return false;
    }
    ++Pos;
    return true;
  }
  bool once(llvm::StringRef Name, SourceLocation L) {
    if (Seen.insert(Name.str()).second)
      return true;
    error(L, "duplicate '" + Name.str() + "' clause");
    return false;
  }

  void parseClause() {
    if (!isIdentifierLike()) {
      error(loc(), "expected a clause, found '" + peek().Spelling + "'");
      return;
    }
    std::string Name = Toks[Pos].Spelling;
    SourceLocation NameLoc = Toks[Pos].Loc;
    ++Pos;
    if (Name == "enable" || Name == "disable")
      parseEnable(Name, NameLoc);
    else if (Name == "devices" || Name == "min_iters" || Name == "collapse")
      parseCount(Name, NameLoc);
    else if (Name == "schedule")
      parseSchedule(Name, NameLoc);
    else if (Name == "reduce")
      parseReduce(Name);
    else if (Name == "extent")
      parseExtent(Name);
    else
      unknownClause(Name, NameLoc);
  }

  /// enable | disable
  void parseEnable(const std::string &Name, SourceLocation NameLoc) {
    if (Out.Enable && *Out.Enable != (Name == "enable")) {
      error(NameLoc, "'enable' and 'disable' cannot both be given");
      return;
    }
    if (!once(Name, NameLoc))
      return;
    Out.Enable = Name == "enable";
  }

  /// devices(N) | min_iters(N) | collapse(N)
  void parseCount(const std::string &Name, SourceLocation NameLoc) {
    if (!once(Name, NameLoc) || !expect(tok::l_paren, "'('", Name))
      return;
    int64_t V;
    int64_t Max = Name == "collapse" ? 3 : INT64_MAX;
    if (!parseInt(Name, 1, Max, V) || !expect(tok::r_paren, "')'", Name))
      return;
    if (Name == "devices")
      Out.MaxDevices = V;
    else if (Name == "min_iters")
      Out.MinIters = V;
    else
      Out.Collapse = V;
  }

  /// schedule(KIND [, N])
  void parseSchedule(const std::string &Name, SourceLocation NameLoc) {
    if (!once(Name, NameLoc) || !expect(tok::l_paren, "'('", Name))
      return;
    if (!isIdentifierLike()) {
      error(loc(), "expected " + scheduleClauseWordList() + " in 'schedule' clause, found '" +
                       peek().Spelling + "'");
      return;
    }
    std::string K = Toks[Pos].Spelling;
    SourceLocation KLoc = Toks[Pos].Loc;
    if (std::optional<ScheduleKind> S = scheduleForClause(K)) {
      Out.Schedule = *S;
    } else {
      std::string Near = closestMatch(K, scheduleClauseWords());
      if (!Near.empty())
        error(KLoc, "unknown schedule '" + K + "'; did you mean '" + Near + "'?", Near, K.size());
      else
        error(KLoc, "unknown schedule '" + K + "'; expected " + scheduleClauseWordList());
      return;
    }
    ++Pos;
    if (peek().is(tok::comma)) {
      ++Pos;
      if (Out.Schedule == ScheduleKind::Block) {
        error(KLoc, "the 'block' schedule takes no chunk size");
        return;
      }
      if (!parseInt("schedule", 1, INT64_MAX, Out.ChunkSize))
        return;
    }
    expect(tok::r_paren, "')'", Name);
  }

  /// reduce(OP: NAME, ...)
  void parseReduce(const std::string &Name) {
    if (!expect(tok::l_paren, "'('", Name))
      return;
    std::optional<ReduceOp> Op;
    if (!atEnd())
      Op = reduceOpForSpelling(Toks[Pos].Spelling);
    if (!Op) {
      error(loc(), "expected a reduction operator (" + reduceOpSpellings() +
                       ") in 'reduce' clause, found '" + peek().Spelling + "'");
      return;
    }
    ++Pos;
    if (!expect(tok::colon, "':'", Name))
      return;
    while (true) {
      if (!isIdentifierLike() || peek().is(tok::numeric_constant)) {
        error(loc(), "expected a variable name in 'reduce' clause, found '" + peek().Spelling +
                         "'");
        return;
      }
      for (const ReduceClause &R : Out.Reductions)
        if (R.Var == Toks[Pos].Spelling) {
          error(Toks[Pos].Loc, "'" + R.Var + "' is named in more than one 'reduce' clause");
          return;
        }
      Out.Reductions.push_back({spelling(*Op).str(), Toks[Pos].Spelling, Toks[Pos].Loc});
      ++Pos;
      if (!peek().is(tok::comma))
        break;
      ++Pos;
    }
    expect(tok::r_paren, "')'", Name);
  }

  /// extent(PATH, EXPR)
  void parseExtent(const std::string &Name) {
    if (!expect(tok::l_paren, "'('", Name))
      return;
    if (!isIdentifierLike()) {
      error(loc(), "expected a pointer name in 'extent' clause, found '" + peek().Spelling + "'");
      return;
    }
    ExtentClause E;
    E.Var = Toks[Pos].Spelling;
    E.Loc = Toks[Pos].Loc;
    ++Pos;
    // A member of a struct or of `this`: s.p, s->p, this->p.
    while (peek().is(tok::period) || peek().is(tok::arrow)) {
      std::string Sep = Toks[Pos].Spelling;
      ++Pos;
      if (!isIdentifierLike()) {
        error(loc(), "expected a member name after '" + Sep + "' in 'extent' clause, found '" +
                         peek().Spelling + "'");
        return;
      }
      E.Var += Sep + Toks[Pos].Spelling;
      ++Pos;
    }
    if (!expect(tok::comma, "','", Name))
      return;
    unsigned Depth = 0;
    size_t Start = Pos;
    while (!atEnd()) {
      tok::TokenKind K = Toks[Pos].Kind;
      if (K == tok::l_paren || K == tok::l_square || K == tok::l_brace)
        ++Depth;
      else if (K == tok::r_paren || K == tok::r_square || K == tok::r_brace) {
        if (Depth == 0)
          break;
        --Depth;
      } else if (K == tok::comma && Depth == 0)
        break;
      if (!E.Count.empty())
        E.Count += " ";
      E.Count += Toks[Pos].Spelling;
      ++Pos;
    }
    if (Pos == Start) {
      error(loc(), "expected an element count in 'extent' clause");
      return;
    }
    for (const ExtentClause &X : Out.Extents)
      if (X.Var == E.Var) {
        error(E.Loc, "duplicate 'extent' clause for '" + E.Var + "'");
        return;
      }
    if (!expect(tok::r_paren, "')'", Name))
      return;
    Out.Extents.push_back(std::move(E));
  }

  void unknownClause(const std::string &Name, SourceLocation NameLoc) {
  std::string Near = closestMatch(Name, ClauseNames);
  if (!Near.empty())
    error(NameLoc, "unknown clause '" + Name + "'; did you mean '" + Near + "'?", Near,
          Name.size());
  else
    error(NameLoc, "unknown clause '" + Name +
                       "'; expected enable, disable, devices, schedule, min_iters, collapse, "
                       "reduce or extent");
  }

  const std::vector<ClauseToken> &Toks;
  SourceLocation End;
  LoopClauses &Out;
  size_t Pos = 0;
  std::set<std::string> Seen;
  std::vector<ClauseError> Errors;
};
} // namespace

std::vector<ClauseError> clustrix::parseClauses(const std::vector<ClauseToken> &Tokens,
                                                SourceLocation ArgsEnd, LoopClauses &Out) {
  return Parser(Tokens, ArgsEnd, Out).run();
}
