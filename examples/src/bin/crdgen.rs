fn main() {
    let crd = crdkit_examples::crontab::CronTab::crd().unwrap();
    print!("{}", crd.to_yaml());
}
