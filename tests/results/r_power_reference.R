# Reference sample sizes and noncentralities for tests/design/test_topic_sets.py, computed
# with base R only (package stats). Run from this folder:
#
#     R CMD BATCH --no-save --no-restore --no-timing --quiet r_power_reference.R
#
# which writes the session with its output to r_power_reference.Rout (committed beside this
# script). The tests compare against the published numbers (gpower31_sample_sizes.json,
# cohen1988_table9_4_2.csv); this script shows that R reproduces them independently.

options(digits = 10)
R.version.string

# G*Power 3.1, "Means: difference between two dependent means (matched pairs)":
# effect size dz = 0.5, alpha = .05 two-tailed, power .80 -> total sample size 34.
# In R: the paired t-test with delta = dz and sd = 1 (sd of the differences).
paired <- power.t.test(delta = 0.5, sd = 1, sig.level = 0.05, power = 0.80,
                       type = "paired", alternative = "two.sided")
paired$n
ceiling(paired$n)

# G*Power 3.1 / Cohen (1988) one-way ANOVA (fixed effects, omnibus): f = 0.25, k = 4
# groups, alpha = .05, power .80 -> 45 per group (total 180).
# power.anova.test's between.var is the variance of the group means with denominator
# k - 1; Cohen's f^2 divides by k, so between.var = f^2 k / (k - 1) with within.var = 1.
f <- 0.25
k <- 4
anova <- power.anova.test(groups = k, between.var = f^2 * k / (k - 1), within.var = 1,
                          sig.level = 0.05, power = 0.80)
anova$n
ceiling(anova$n)

# Cohen (1988), Table 9.4.2: the noncentrality lambda at which the chi-square test with
# u degrees of freedom (the F test's limit as its denominator df grows) has power .80 at
# alpha = .05.
lambda <- sapply(1:6, function(u) {
  uniroot(function(l) pchisq(qchisq(0.95, u), u, ncp = l, lower.tail = FALSE) - 0.80,
          c(0.1, 50), tol = 1e-12)$root
})
data.frame(u = 1:6, lambda = lambda, lambda_2dp = round(lambda, 2))
