"""The throwaway LemonLDAP::NG provider of .ci/oidc/lemonldap-start, as the browser scripts use
it: started and stopped from Python, its environment read, its people, and its login form."""
import os
import subprocess
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

SCRIPTS = Path(__file__).resolve().parent.parent / ".ci" / "oidc"


def start(redirect_uri, post_logout_uri):
    """Starts a provider for one relying party; returns lemonldap-start's variables."""
    out = subprocess.run([str(SCRIPTS / "lemonldap-start"), "--redirect-uri", redirect_uri,
                          "--post-logout-uri", post_logout_uri], check=True, capture_output=True, text=True)
    env = {}
    for line in out.stdout.splitlines():
        if line.startswith("export "):
            name, value = line[len("export "):].split("=", 1)
            env[name] = value.strip("'")
    return env


def stop(env):
    subprocess.run([str(SCRIPTS / "lemonldap-stop"), env["TALLY_TEST_OIDC_DIR"]], check=True)


def from_environment():
    """lemonldap-start's variables, as a runner that sourced its output passes them."""
    return {name: value for name, value in os.environ.items() if name.startswith("TALLY_TEST_OIDC_")}


def requests(env, path):
    """How many requests for `path` the provider's nginx has logged."""
    log = Path(env["TALLY_TEST_OIDC_DIR"]) / "nginx" / "access.log"
    return sum(f'"GET {path}' in line for line in log.read_text().splitlines()) if log.exists() else 0


def people(env):
    """{user: (password, [groups])} of the demo backend."""
    found = {}
    for person in env["TALLY_TEST_OIDC_PEOPLE"].split():
        user, password, groups = person.split(":")
        found[user] = (password, groups.split(","))
    return found


def secret(env):
    return Path(env["TALLY_TEST_OIDC_SECRET_FILE"]).read_text().strip()


def on_login_form(driver):
    """Whether the browser shows the portal's login form (the provider asks for a password)."""
    return bool(driver.find_elements(By.CSS_SELECTOR, "form input[name=user]")) and \
        bool(driver.find_elements(By.CSS_SELECTOR, "form input[name=password]"))


def sign_in(driver, user, password):
    """Fills in and sends the portal's login form, once it shows."""
    WebDriverWait(driver, 20).until(lambda _: on_login_form(driver))
    driver.find_element(By.CSS_SELECTOR, "input[name=user]").send_keys(user)
    driver.find_element(By.CSS_SELECTOR, "input[name=password]").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()


def on_sign_out_question(driver):
    """Whether the portal asks "Do you want to logout?": it does when a relying party sends a
    person to end_session_endpoint without `id_token_hint`."""
    return bool(driver.find_elements(By.CSS_SELECTOR, ".oidc_logout_message"))


def accept_sign_out(driver):
    driver.find_element(By.CSS_SELECTOR, "form.confirm button.positive").click()
