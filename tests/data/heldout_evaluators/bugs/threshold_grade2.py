"""Binary measures count only grade >= 2 as relevant."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def relevant(self, judged):
        return {d for d, g in judged.items() if g >= 2}
run(Bug)
